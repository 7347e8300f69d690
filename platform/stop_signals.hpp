// Waiting for the user to stop a long-running command (Ctrl+C, or a SIGTERM from a service manager),
// as an event a thread waits for rather than a handler that interrupts whatever runs: a server then
// stops accepting, finishes the requests under way (a copy being written) and exits cleanly.
#pragma once

namespace anvil::platform {

class StopSignals {
 public:
  // Takes the stop signals away from their default action in this thread and in every thread it
  // starts afterwards: construct it before starting any.
  StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // Blocks until a stop signal arrives; returns its number.
  int wait();
};

}  // namespace anvil::platform
