// platform/stop_signals.hpp on POSIX: SIGINT and SIGTERM blocked (inherited by the threads started
// afterwards) and taken with sigwait(3), so no handler runs inside a request's work.
#include "platform/stop_signals.hpp"

#include <pthread.h>
#include <signal.h>

namespace anvil::platform {
namespace {

sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

StopSignals::StopSignals() {
  sigset_t set = stop_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int StopSignals::wait() {
  sigset_t set = stop_set();
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  return sig;
}

}  // namespace anvil::platform
