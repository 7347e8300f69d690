// The saving byte archive: writes a structure as little-endian bytes through its one layout
// declaration. Counts are derived from the vectors they describe; checked constants are written as
// the format demands.
#pragma once

#include <algorithm>
#include <bit>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "model/layout.hpp"

namespace anvil {

static_assert(std::endian::native == std::endian::little, "the byte archives copy little-endian fields directly");

class ByteWriter : public ArchiveContext {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;

  // Appends to `out`, which holds exactly what was written once the writer is gone.
  explicit ByteWriter(std::vector<u8>& out) : out_(out), cur_(out.data() + out.size()), end_(out.data() + out.size()) {}
  // Writes over `out` from its start, growing it only when it is too short, and leaves its size alone
  // (at least written()): a scratch buffer reused for many objects is then never zero-filled again.
  struct Over {};
  ByteWriter(std::vector<u8>& out, Over) : out_(out), cur_(out.data()), end_(out.data() + out.size()), trim_(false) {}
  ~ByteWriter() {
    if (trim_) out_.resize(written());
  }
  std::size_t written() const { return static_cast<std::size_t>(cur_ - out_.data()); }
  ByteWriter(const ByteWriter&) = delete;

  // Writes a structure read by a skimming ByteReader (reader/byte_reader.hpp skim_into) without its runs:
  // `runs` are the views that read gave, in the same order; each run's count is written from its view
  // and its bytes are left out, and a size_of() writes the length the read kept. `cuts`, when given,
  // hears where in the output each run was left out. Comparing the output with the input minus its runs
  // checks everything the declaration re-encodes without copying the runs (a data file's bodies).
  void skim_from(std::span<const std::span<const u8>> runs, std::vector<std::size_t>* cuts = nullptr) {
    runs_ = runs;
    skimming_ = true;
    cuts_ = cuts;
  }
  // Whether every run given to skim_from() was met.
  bool runs_matched() const { return !skimming_ || (run_ == runs_.size() && !run_missing_); }
  ByteWriter& operator=(const ByteWriter&) = delete;

  template <class T>
  [[gnu::always_inline]] ByteWriter& operator&(const boost::serialization::nvp<T>& field) {
    write_value(field.value());
    return *this;
  }

  template <class T>
  [[gnu::always_inline]] ByteWriter& operator&(const Expect<T>& e) {
    put(&e.value, sizeof(T));
    return *this;
  }

  template <class Count, class T>
  ByteWriter& operator&(const Counted<Count, T>& c) {
    write_count<Count>(c.items.size());
    if constexpr (std::is_same_v<T, Matrix> || requires(T t) { t.bytes.size(); }) {
      static_assert(sizeof(T) == WireSize<T>::value);
      put(c.items.data(), sizeof(T) * c.items.size());
    } else {
      for (auto& item : c.items) write_value(item);
    }
    return *this;
  }

  template <class Count>
  ByteWriter& operator&(const CountedBytes<Count>& c) {
    if (skimming_) {
      write_count<Count>(next_run_size());
      skip_run();
      return *this;
    }
    write_count<Count>(c.data.bytes.size());
    put(c.data.bytes.data(), c.data.bytes.size());
    return *this;
  }

  template <class... Alts>
  ByteWriter& operator&(const ClassSwitch<Alts...>& s) {
    u32 cls = class_id_of(s.body);
    put(&cls, sizeof cls);
    std::visit([this](auto& alt) { alt.serialize(*this, version_); }, s.body);
    return *this;
  }

  template <class T>
  ByteWriter& operator&(const PresentIf<T>& p) {
    if (p.target) p.target->serialize(*this, version_);
    return *this;
  }

  template <class T, std::size_t N>
  ByteWriter& operator&(const EachFollowedBy<T, N>& e) {
    for (std::size_t i = 0; i < N; ++i) {
      write_value(e.items[i]);
      put(&e.constants[i], sizeof(u32));
    }
    return *this;
  }

  ByteWriter& operator&(const UntilTail& u) {
    put(u.data.bytes.data(), u.data.bytes.size());
    return *this;
  }

  ByteWriter& operator&(const Require&) { return *this; }

  template <class Count>
  ByteWriter& operator&(const SizeOf<Count>& s) {
    if (skimming_) {
      write_count<Count>(s.length);
      return *this;
    }
    s.length = s.data.bytes.size();
    write_count<Count>(s.data.bytes.size());  // the caller keeps a run within Count (FORGE.md 2)
    return *this;
  }

  ByteWriter& operator&(const RestBytes& r) {
    if (skimming_) {
      skip_run();
      return *this;
    }
    put(r.data.bytes.data(), r.data.bytes.size());
    return *this;
  }

  ByteWriter& operator&(const SizedBytes& s) {
    if (skimming_) {
      skip_run();
      return *this;
    }
    put(s.data.bytes.data(), s.data.bytes.size());
    return *this;
  }

  template <class Count, class T>
  ByteWriter& operator&(const Heads<Count, T>& h) {
    write_count<Count>(h.items.size());
    for (auto& item : h.items) item.serialize_head(*this);
    return *this;
  }

  template <class T>
  ByteWriter& operator&(const Bodies<T>& b) {
    for (auto& item : b.items) item.serialize_body(*this);
    return *this;
  }

  template <class T>
  ByteWriter& operator&(const UntilEnd<T>& u) {
    for (auto& item : u.items) write_value(item);
    return *this;
  }

 private:
  // The size of the next run of a skimmed structure, and leaving it out of the output (here).
  std::size_t next_run_size() const { return run_ < runs_.size() ? runs_[run_].size() : 0; }
  void skip_run() {
    if (run_ >= runs_.size()) {
      run_missing_ = true;
      return;
    }
    if (cuts_) cuts_->push_back(written());
    ++run_;
  }

  // Fields are a few bytes each: each is one memcpy into room made ahead in `out`, between two
  // pointers of the writer's own (the vector's are reloaded after every byte stored, as it might be
  // one of them).
  [[gnu::always_inline]] void put(const void* data, std::size_t size) {
    if (size == 0) return;  // data may be null
    if (static_cast<std::size_t>(end_ - cur_) < size) [[unlikely]]
      grow(size);
    std::memcpy(cur_, data, size);
    cur_ += size;
  }
  // Grows by a small step: resize zero-fills what it adds, and the vector reallocates geometrically.
  [[gnu::noinline]] void grow(std::size_t size) {
    std::size_t used = written();
    out_.resize(used + std::max<std::size_t>(size, 256));
    cur_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }

  template <class Count>
  void write_count(std::size_t n) {
    Count count = static_cast<Count>(n);
    put(&count, sizeof count);
  }

  template <class T>
  [[gnu::always_inline]] void write_value(T& value) {
    if constexpr (std::is_arithmetic_v<T>) {
      put(&value, sizeof value);
    } else if constexpr (requires { value.value; }) {  // Id<T>
      put(&value.value, sizeof value.value);
    } else if constexpr (requires { value.bytes.size(); }) {  // Opaque<N>
      put(value.bytes.data(), value.bytes.size());
    } else if constexpr (requires { value.has_value(); }) {  // inline pointer
      u8 tag = value ? 0x00 : 0x03;
      put(&tag, 1);
      if (value) value->serialize(*this, version_);
    } else if constexpr (requires {
                           value.size();
                           value[0];
                         }) {  // std::array
      for (auto& item : value) write_value(item);
    } else {
      value.serialize(*this, version_);
    }
  }

  std::vector<u8>& out_;
  u8* cur_;  // where the next byte goes
  u8* end_;  // the end of the room in out_
  bool trim_ = true;
  std::span<const std::span<const u8>> runs_;  // skim_from()
  std::size_t run_ = 0;
  bool skimming_ = false, run_missing_ = false;
  std::vector<std::size_t>* cuts_ = nullptr;
};

}  // namespace anvil
