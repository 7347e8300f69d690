#include "view/map_file.hpp"

#include <absl/container/flat_hash_set.h>
#include <absl/strings/str_cat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string_view>

#include "platform/replace_file.hpp"
#include "view/folder_level_set.hpp"
#include "view/map_png.hpp"
#include "view/map_svg.hpp"
#include "view/patched_levels.hpp"
#include "view/placed_instances.hpp"

namespace anvil::view {
namespace {

absl::Status named(const MapInput& input, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(input.path, ": ", status.message()));
}

// Each --objects key must name an instance before or after the patches.
absl::Status check_objects(const MapOptions& options, const PlacedInstances& before, const PlacedInstances* after,
                           const std::string& path) {
  if (options.objects.empty()) return absl::OkStatus();
  absl::flat_hash_set<std::string> found;
  for (const auto* list : {&before, after})
    if (list)
      for (const PlacedInstance& p : list->records) found.insert(key_of(p));
  for (const std::string& key : options.objects)
    if (!found.contains(key))
      return absl::NotFoundError(absl::StrCat(path, ": --objects ", key,
                                              ": no object of that key places an instance (keys as dump prints them)"));
  return absl::OkStatus();
}

// The instances after the patches: those of the data files no patch edited, as they were, and those of the
// edited ones read again, in set order.
absl::StatusOr<PlacedInstances> after_patches(const MapInput& input, std::span<const NamedPatch> patches,
                                              const PlacedInstances& before, unsigned threads) {
  std::optional<PatchedLevels> patched_set;
  if (input.folder)
    patched_set.emplace(*input.folder);
  else
    patched_set.emplace(*input.set, input.variant);
  PatchedLevels& patched = *patched_set;
  for (const NamedPatch& p : patches)
    if (auto s = patched.apply(p.text, p.name, input.archive, input.path); !s.ok()) return s;
  auto fresh = placed_instances(patched, threads, &patched.changed());
  if (!fresh.ok()) return named(input, fresh.status());
  PlacedInstances after{before.datafiles, {}, {}};
  after.records.reserve(before.records.size() + fresh->records.size());
  // Records are grouped by data file in set order; each group is taken from the list that holds it now.
  const std::vector<PlacedInstance>& old = before.records;
  auto next_fresh = fresh->records.begin();
  for (std::size_t i = 0, b = 0; i < input.set->size(); ++i) {
    if (!patched.changed()[i]) {
      while (b < old.size() && old[b].datafile == i) after.records.push_back(old[b++]);
      continue;
    }
    while (b < old.size() && old[b].datafile == i) ++b;
    while (next_fresh != fresh->records.end() && next_fresh->datafile == i) after.records.push_back(*next_fresh++);
  }
  return after;
}

// `write(stream)` into the output, atomically; false from it is a write error.
absl::Status write_output(const std::string& output, const std::function<bool(std::FILE*)>& write) {
  platform::AtomicFile file;
  if (auto s = file.open(output); !s.ok()) return s;
  if (!write(file.stream()))
    return absl::DataLossError(absl::StrCat(output == "-" ? std::string("standard output") : output,
                                            ": cannot write: ", std::strerror(errno)));
  return file.commit();
}

}  // namespace

absl::StatusOr<MapSummary> write_map(MapInput input, std::span<const NamedPatch> patches, const MapRequest& request) {
  absl::StatusOr<PlacedInstances> before;
  if (input.level_file)
    before = placed_instances_in_level_file(*input.level_file, input.set->game(), request.threads);
  else
    before = placed_instances(*input.set, request.threads);
  if (!before.ok()) return named(input, before.status());
  std::optional<PlacedInstances> after;
  if (!patches.empty()) {
    auto patched = after_patches(input, patches, *before, request.threads);
    if (!patched.ok()) return patched.status();
    after = std::move(*patched);
  }
  const PlacedInstances* after_list = after ? &*after : nullptr;
  if (auto s = check_objects(request.options, *before, after_list, input.path); !s.ok()) return s;
  const MapScene scene = build_map_scene(*before, after_list, request.options, request.threads);
  MapSummary summary{scene.marks.size() - scene.removed, scene.moved, scene.added, scene.removed, scene.unplaced};
  if (request.png) {
    auto png = render_map_png(scene);
    if (!png.ok()) return png.status();
    if (auto s =
            write_output(request.output,
                         [&](std::FILE* out) { return std::fwrite(png->data(), 1, png->size(), out) == png->size(); });
        !s.ok())
      return s;
    return summary;
  }
  if (auto s = write_output(request.output, [&](std::FILE* out) { return write_map_svg(scene, out, request.threads); });
      !s.ok())
    return s;
  return summary;
}

}  // namespace anvil::view

namespace anvil::view {

absl::StatusOr<PlacedInstances> instances_after(const MapInput& input, std::span<const NamedPatch> patches,
                                                const PlacedInstances& before, unsigned threads) {
  return after_patches(input, patches, before, threads);
}

}  // namespace anvil::view
