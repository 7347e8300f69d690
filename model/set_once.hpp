// A value resolved at most once, read from any thread: set by one caller, or made by the first of several
// callers while the others wait. Setting it a second time is a logic error (std::logic_error), so that no
// code can change what an earlier reader saw. A copy starts unset (the state is the original's alone).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

namespace anvil {

template <class T>
class SetOnce {
 public:
  SetOnce() = default;
  SetOnce(const SetOnce&) : SetOnce() {}
  SetOnce& operator=(const SetOnce&) {
    state_ = std::make_unique<State>();
    return *this;
  }
  SetOnce(SetOnce&& other) : state_(std::exchange(other.state_, std::make_unique<State>())) {}
  SetOnce& operator=(SetOnce&& other) {
    std::swap(state_, other.state_);
    return *this;
  }

  // The value once set; nothing before.
  const T* get() const { return state_->set.load(std::memory_order_acquire) ? &*state_->value : nullptr; }

  // Sets it; std::logic_error (`what`) when it is set already.
  void set(T value, const char* what) const {
    std::lock_guard lock(state_->mutex);
    if (state_->set.load(std::memory_order_relaxed)) throw std::logic_error(what);
    state_->value = std::move(value);
    state_->set.store(true, std::memory_order_release);
  }

  // The value, made by `make()` when it is not set yet (under the lock: a second caller waits for it).
  template <class Make>
  const T& get_or_make(const Make& make) const {
    if (const T* value = get()) return *value;
    std::lock_guard lock(state_->mutex);
    if (!state_->set.load(std::memory_order_relaxed)) {
      state_->value = make();
      state_->set.store(true, std::memory_order_release);
    }
    return *state_->value;
  }

 private:
  struct State {
    std::mutex mutex;
    std::atomic<bool> set{false};
    std::optional<T> value;
  };
  std::unique_ptr<State> state_ = std::make_unique<State>();
};

}  // namespace anvil
