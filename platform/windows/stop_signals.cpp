// platform/stop_signals.hpp on Windows: a console control handler (SetConsoleCtrlHandler), which Windows
// runs on a thread of its own, records the event and wakes wait(); no handler runs inside a request's work.
// Ctrl+C and Ctrl+Break are taken (TRUE: the process goes on, to stop cleanly); closing the console,
// logging off and shutting down end the process as soon as the handlers return whatever they answer, so
// those are recorded and handed on (FALSE) to the handler that removes the temporaries (temp_file.cpp).
#include "platform/stop_signals.hpp"

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <utility>

#include "platform/windows/system.hpp"

namespace anvil::platform {

namespace {

std::mutex stop_mutex;
std::condition_variable stop_arrived;
int stop_signal = 0;  // the POSIX number of the event that arrived; 0 while none has

BOOL WINAPI record_stop(DWORD event) {
  const bool interrupt = event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT;
  {
    std::lock_guard lock(stop_mutex);
    stop_signal = interrupt ? SIGINT : SIGTERM;
  }
  stop_arrived.notify_all();
  return interrupt ? TRUE : FALSE;
}

}  // namespace

StopSignals::StopSignals() {
  // Windows calls the handlers last registered first: the temporaries' handler, which ends the process,
  // is registered before this one so that a Ctrl+C reaches this one first and stops there.
  windows::remove_temporaries_on_interrupt();
  static std::once_flag once;
  std::call_once(once, [] { ::SetConsoleCtrlHandler(record_stop, TRUE); });
}

int StopSignals::wait() {
  std::unique_lock lock(stop_mutex);
  stop_arrived.wait(lock, [] { return stop_signal != 0; });
  return std::exchange(stop_signal, 0);
}

}  // namespace anvil::platform
