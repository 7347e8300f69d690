// The loading byte archive: reads a structure from little-endian bytes through its one layout
// declaration. The first failed check latches (sticky status): it also moves the end of what may be read
// to where the reader is, so every later read fails its bounds check and does nothing, and the caller
// asks once per structure whether it parsed.
#pragma once

#include <absl/strings/str_format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "model/check_text.hpp"
#include "model/counted.hpp"
#include "model/layout.hpp"
#include "reader/check_failure.hpp"

namespace anvil {

static_assert(std::endian::native == std::endian::little, "the byte archives copy little-endian fields directly");

// Answers the look-ups of the `ac2` unknown-instance rule (FORMAT.md 2.1) for the whole file at once,
// so that carving stays linear in the file size.
class TailFinder {
 public:
  virtual ~TailFinder() = default;
  // The first offset >= from where a valid Visual tail starts, if it is <= limit.
  virtual std::optional<std::size_t> next_tail(std::size_t from, std::size_t limit) = 0;
  // Whether the Visual class-id bytes lie wholly inside [from, to).
  virtual bool visual_signature_in(std::size_t from, std::size_t to) = 0;
};

class ByteReader : public ArchiveContext {
 public:
  using is_loading = std::true_type;
  using is_saving = std::false_type;

  // Reads `file` from `pos`; counts are checked against the bytes up to the end of `file`.
  explicit ByteReader(std::span<const u8> file, std::size_t pos = 0, TailFinder* tails = nullptr)
      : file_(file), cur_(file.data() + pos), end_(file.data() + file.size()), tails_(tails) {}

  // A skimming read: the layout's runs of bytes (counted, sized and to-the-end) are not copied into their
  // fields, which stay empty, but appended to `runs` as views of the input, in the order the declaration
  // reads them. For a summary of a large structure (`ls` of an archive) that needs a few of its runs.
  void skim_into(std::vector<std::span<const u8>>* runs) { runs_ = runs; }

  bool ok() const { return !failure_.has_value(); }
  const std::optional<CheckFailure>& failure() const { return failure_; }
  std::size_t pos() const { return static_cast<std::size_t>(cur_ - file_.data()); }
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - cur_); }

  // Fails the structure being read unless it did already.
  void fail(std::string check, std::string found) {
    if (failure_) return;
    CheckFailure f;
    f.offset = pos();
    for (std::size_t i = 0; i < std::min(depth_, path_.size()); ++i) {
      if (!f.path.empty()) f.path += '/';
      f.path += path_[i];
    }
    f.check = std::move(check);
    f.found = std::move(found);
    f.element = root_element_;
    failure_ = std::move(f);
    end_ = cur_;  // nothing is left to read: every later field's need() fails, with no ok() of its own
  }

  template <class T>
  [[gnu::always_inline]] ByteReader& operator&(const boost::serialization::nvp<T>& field) {
    read(field.name(), field.value());
    return *this;
  }

  template <class T>
  [[gnu::always_inline]] ByteReader& operator&(const Expect<T>& e) {
    T value{};
    const u8* at = cur_;
    if (!read_scalar(e.what, value)) return *this;
    if (value != e.value) {
      cur_ = at;
      fail(must_be_text(e.what, u64{e.value}, sizeof(T)), absl::StrFormat("0x%0*x", 2 * sizeof(T), u64{value}));
    }
    return *this;
  }

  template <class Count, class T>
  ByteReader& operator&(const Counted<Count, T>& c) {
    Count n{};
    if (!read_counted_size<Count>(c.name.text, WireSize<T>::value, n)) return *this;
    c.items.resize(n);
    if constexpr (kCopyable<T>) {
      if (n != 0) std::memcpy(c.items.data(), cur_, sizeof(T) * n);  // data() may be null
      cur_ += sizeof(T) * n;
    } else {
      for (auto& item : c.items) {
        if (!ok()) break;
        read_value(c.name.text, item);
      }
    }
    return *this;
  }

  template <class Count>
  ByteReader& operator&(const CountedBytes<Count>& c) {
    Count n{};
    if (!read_counted_size<Count>(c.name.text, 1, n)) return *this;
    take_run(c.data, n);
    return *this;
  }

  template <class... Alts>
  ByteReader& operator&(const ClassSwitch<Alts...>& s) {
    u32 cls = 0;
    const u8* at = cur_;
    if (!read_scalar(s.what, cls)) return *this;
    if (!select_class(s.body, cls)) {
      cur_ = at;
      fail(must_be_known_text(s.what), absl::StrFormat("0x%08x", cls));
      return *this;
    }
    std::visit([this](auto& alt) { alt.serialize(*this, version_); }, s.body);
    return *this;
  }

  template <class T>
  ByteReader& operator&(const PresentIf<T>& p) {
    if (!ok()) return *this;
    if (!p.present) {
      p.target.reset();
      return *this;
    }
    if (!p.target) p.target.emplace();
    read_struct(p.name.text, *p.target);
    return *this;
  }

  template <class T, std::size_t N>
  ByteReader& operator&(const EachFollowedBy<T, N>& e) {
    for (std::size_t i = 0; i < N && ok(); ++i) {
      read_value(e.name.text, e.items[i]);
      *this& expect<u32>(e.constants[i], e.what);
    }
    return *this;
  }

  ByteReader& operator&(const UntilTail& u) {
    if (!ok()) return *this;
    if (tails_ == nullptr) {
      fail("an unknown instance body needs the whole file to find its tail", "");
      return *this;
    }
    std::size_t limit = pos() + std::min(kUntilTailLimit, remaining());
    auto tail = tails_->next_tail(pos(), limit);
    if (!tail) {
      fail("unknown instance body must end at a valid Visual tail within 1 MiB", "none");
      return *this;
    }
    if (tails_->visual_signature_in(pos(), *tail)) {
      fail("unknown instance body must not hold the Visual class id", "29 8d 65 ec");
      return *this;
    }
    u.data.bytes.assign(cur_, file_.data() + *tail);
    cur_ = file_.data() + *tail;
    return *this;
  }

  ByteReader& operator&(const Require& r) {
    if (!ok() || r.holds) return *this;
    cur_ -= std::min(r.back, pos());
    fail(r.what, r.found_text());
    return *this;
  }

  template <class Count>
  ByteReader& operator&(const SizeOf<Count>& s) {
    Count n{};
    if (read_scalar(s.name.text, n)) s.length = n;
    return *this;
  }

  ByteReader& operator&(const SizedBytes& s) {
    if (!need(s.name.text, s.length)) return *this;
    take_run(s.data, s.length);
    return *this;
  }

  template <class Count, class T>
  ByteReader& operator&(const Heads<Count, T>& h) {
    Count n{};
    if (!read_counted_size<Count>(h.name.text, T::head_wire_size + T::min_body_wire_size, n)) return *this;
    h.items.resize(n);
    for (std::size_t i = 0; i < h.items.size() && ok(); ++i) {
      if (depth_ == 0) root_element_ = i;
      HeadOf<T> head{h.items[i]};
      read_struct(h.name.text, head);
    }
    if (depth_ == 0) root_element_.reset();
    return *this;
  }

  template <class T>
  ByteReader& operator&(const Bodies<T>& b) {
    for (std::size_t i = 0; i < b.items.size() && ok(); ++i) {
      if (depth_ == 0) root_element_ = i;
      BodyOf<T> body{b.items[i]};
      read_struct(b.name.text, body);
    }
    if (depth_ == 0) root_element_.reset();
    return *this;
  }

  ByteReader& operator&(const RestBytes& r) {
    take_run(r.data, remaining());  // nothing once a check has failed (end_ is cur_)
    return *this;
  }

  template <class T>
  ByteReader& operator&(const UntilEnd<T>& u) {
    static_assert(WireSize<T>::value > 0);
    u.items.clear();
    while (ok() && remaining() > 0) {
      u.items.emplace_back();
      read_struct(u.name.text, u.items.back());
    }
    return *this;
  }

 private:
  // Fixed-size arrays of bytes or floats are stored exactly as they lie in memory.
  template <class T>
  static constexpr bool kCopyable = std::is_same_v<T, Matrix> || (kIsOpaque<T> && std::is_trivially_copyable_v<T> &&
                                                                  sizeof(T) == WireSize<T>::value);

  // Copies the next `n` bytes (checked) into `data`, or views them when skimming.
  void take_run(OpaqueBytes& data, std::size_t n) {
    if (runs_)
      runs_->emplace_back(cur_, n);
    else
      data.bytes.assign(cur_, cur_ + n);
    cur_ += n;
  }

  [[gnu::always_inline]] bool need(const char* name, std::size_t size) {
    if (size <= remaining()) [[likely]]
      return true;
    fail_truncated(name, size);
    return false;
  }

  [[gnu::noinline]] void fail_truncated(const char* name, std::size_t size) {
    if (failure_) return;  // a field after the failure, with nothing left to read
    push(name);
    fail("needs " + counted(size, "byte"), absl::StrFormat("%d left", remaining()));
    --depth_;
  }

  template <class T>
  [[gnu::always_inline]] bool read_scalar(const char* name, T& value) {
    if (!need(name, sizeof(T))) return false;  // as after a failure
    std::memcpy(&value, cur_, sizeof(T));
    cur_ += sizeof(T);
    return true;
  }

  // Reads a count and checks that n elements of at least `element_size` bytes fit in what is left.
  // Inlined, its failure out of line: it is on every counted run of every object (verify --no-json lost
  // 8 % of its instructions when g++ stopped inlining it as the archive grew).
  template <class Count>
  [[gnu::always_inline]] bool read_counted_size(const char* name, std::size_t element_size, Count& n) {
    const u8* at = cur_;
    if (!read_scalar(name, n)) return false;
    if (n > remaining() / element_size) [[unlikely]] {
      fail_count(at, name, element_size, u64{n});
      return false;
    }
    return true;
  }

  // The count read from `at` does not fit: the failure points at the count, and says what was left after it.
  [[gnu::noinline, gnu::cold]] void fail_count(const u8* at, const char* name, std::size_t element_size, u64 n) {
    const std::size_t left = remaining();
    cur_ = at;
    push(name);
    fail(absl::StrFormat("count must fit in the bytes left (%d each)", element_size),
         absl::StrFormat("%d with %d left", n, left));
    --depth_;
  }

  template <class T>
  void read_struct(const char* name, T& value) {
    push(name);
    value.serialize(*this, version_);
    --depth_;
  }

  template <class T>
  void read(const char* name, T& value) {
    read_value(name, value);
  }

  template <class T>
  [[gnu::always_inline]] void read_value(const char* name, T& value) {
    if constexpr (std::is_arithmetic_v<T>) {
      read_scalar(name, value);
    } else if constexpr (requires { value.value; }) {  // Id<T>
      read_scalar(name, value.value);
    } else if constexpr (requires { value.bytes.size(); }) {  // Opaque<N>
      if (need(name, value.bytes.size())) {
        std::memcpy(value.bytes.data(), cur_, value.bytes.size());
        cur_ += value.bytes.size();
      }
    } else if constexpr (requires { value.has_value(); }) {  // inline pointer
      read_pointer(name, value);
    } else if constexpr (requires {
                           value.size();
                           value[0];
                         }) {  // std::array
      for (auto& item : value) {
        if (!ok()) break;
        read_value(name, item);
      }
    } else {
      read_struct(name, value);
    }
  }

  template <class T>
  void read_pointer(const char* name, std::optional<T>& target) {
    u8 tag = 0;
    const u8* at = cur_;
    if (!read_scalar(name, tag)) return;
    if (tag == 0x03) {
      target.reset();
    } else if (tag == 0x00) {
      if (!target) target.emplace();
      read_struct(name, *target);
    } else {
      cur_ = at;
      push(name);
      fail(kPointerTagText, absl::StrFormat("%02x", tag));
      --depth_;
    }
  }

  // The names of the structures being read, outermost first (fixed room: layouts nest a few deep).
  void push(const char* name) {
    if (depth_ < path_.size()) path_[depth_] = name;
    ++depth_;
  }

  // The read position as a pointer of the reader's own: fields are copied from cur_ and checked against
  // end_ with no load of the span's (reloaded after every byte stored into the model, as it might be
  // one of them).
  std::span<const u8> file_;
  const u8* cur_;
  const u8* end_;  // the file's end, or cur_ once a check has failed
  TailFinder* tails_;
  std::array<const char*, 16> path_;
  std::size_t depth_ = 0;
  std::optional<std::size_t> root_element_;  // CheckFailure::element
  std::optional<CheckFailure> failure_;
  std::vector<std::span<const u8>>* runs_ = nullptr;
};

}  // namespace anvil
