#include "cli/progress_bar.hpp"

#include <absl/strings/numbers.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include "platform/terminal.hpp"

namespace anvil::cli {
namespace {

std::string size_text(double bytes) {
  if (bytes < 1e3) return absl::StrFormat("%.0f B", bytes);
  if (bytes < 1e6) return absl::StrFormat("%.1f kB", bytes / 1e3);
  if (bytes < 1e9) return absl::StrFormat("%.1f MB", bytes / 1e6);
  return absl::StrFormat("%.2f GB", bytes / 1e9);
}

std::string time_text(double seconds) {
  auto s = static_cast<long long>(std::ceil(seconds));
  if (s >= 3600) return absl::StrFormat("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  return absl::StrFormat("%d:%02d", s / 60, s % 60);
}

// The bar on the terminal now (one at a time: one command runs one job).
std::atomic<ProgressBar*> active{nullptr};

// The delay before a bar is drawn: ANVILRT_PROGRESS_DELAY when it is a number of seconds, else the default.
double progress_delay() {
  double seconds = 0;
  const char* text = std::getenv("ANVILRT_PROGRESS_DELAY");
  if (text && absl::SimpleAtod(text, &seconds) && std::isfinite(seconds) && seconds >= 0) return seconds;
  return ProgressBar::kDelay;
}

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string format_progress(const std::string& label, std::size_t done, std::size_t total, double seconds,
                            std::size_t width) {
  done = std::min(done, total);
  double fraction = total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
  double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  std::string left = rate > 0 ? time_text(static_cast<double>(total - done) / rate) + " left" : "--:-- left";
  std::string tail = absl::StrFormat(" %3d%%  %s of %s  %s/s  %s", static_cast<int>(fraction * 100),
                                     size_text(static_cast<double>(done)), size_text(static_cast<double>(total)),
                                     size_text(rate), left);
  // The bar takes what is left of the line, between 10 and 30 columns; none on a very narrow terminal.
  std::size_t fixed = label.size() + 3 + tail.size();
  std::string line = label;
  if (width > fixed + 10) {
    std::size_t bar = std::min<std::size_t>(30, width - fixed - 1);
    auto filled = static_cast<std::size_t>(fraction * static_cast<double>(bar));
    line += " [" + std::string(filled, '#') + std::string(bar - filled, '.') + "]";
  }
  line += tail;
  if (line.size() > width) line.resize(width);
  return line;
}

bool progress_wanted(bool quiet, int fd) {
  return !quiet && platform::is_terminal(fd) && platform::enable_escape_sequences(fd);
}

ProgressBar::ProgressBar(std::string label, bool quiet)
    : ProgressBar(std::move(label), progress_wanted(quiet, platform::kStandardError), stderr, steady_seconds,
                  platform::terminal_width(platform::kStandardError), progress_delay()) {}

ProgressBar::ProgressBar(std::string label, bool enabled, std::FILE* out, Clock clock, std::size_t width, double delay)
    : label_(std::move(label)),
      enabled_(enabled),
      out_(out),
      clock_(std::move(clock)),
      width_(width > 1 ? width - 1 : 1),  // the last column would wrap on some terminals
      delay_(delay),
      start_(enabled_ ? clock_() : 0) {
  if (enabled_) active = this;
}

ProgressBar::~ProgressBar() {
  erase();
  ProgressBar* self = this;
  active.compare_exchange_strong(self, nullptr);
}

void erase_progress() {
  if (ProgressBar* bar = active.load()) bar->erase();
}

void ProgressBar::update(std::size_t done, std::size_t total) {
  if (!enabled_) return;
  // A thread that finds another drawing skips its drawing: the next update draws the newer figure.
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  double now = clock_();
  if (now - start_ < delay_ || (last_drawn_ >= 0 && now - last_drawn_ < kInterval)) return;
  last_drawn_ = now;
  std::string line = format_progress(label_, done, total, now - start_, width_);
  std::fprintf(out_, "\r%s\033[K", line.c_str());
  std::fflush(out_);
  shown_ = true;
}

ProgressFn ProgressBar::callback() {
  if (!enabled_) return {};
  return [this](std::size_t done, std::size_t total) { update(done, total); };
}

void ProgressBar::erase() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (!shown_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  shown_ = false;
}

}  // namespace anvil::cli
