#pragma once
// ClientOptions::hooks as the extraction loop calls them: one CallEvents per call, which knows
// the call's identity, copies and redacts what each hook sees, and keeps a hook's exception from
// reaching the loop.

#include <chrono>
#include <cstddef>

#include "accord/client.hpp"
#include "accord/hooks.hpp"

namespace accord::detail {

class CallEvents {
 public:
  CallEvents(const Client& client, std::string schema_name);

  // The call moved on to a fallback: the events after this name it (the call's id stays).
  void switch_to(const Client& client);

  void request_sent(std::size_t attempt, AttemptRole role, const CallSpec& call, bool streamed);
  void correction_sent(std::size_t attempt, AttemptRole role, const CallSpec& call);
  void reply_received(std::size_t attempt, const Attempt& answered);
  void issues_found(std::size_t attempt, const Issues& issues, const Repairs& repairs);
  void finished(const Trace& trace, const Error* error);
  // What the transport calls before each retry of attempt `attempt`'s request; empty when no
  // hook listens.
  [[nodiscard]] RetryObserver retries(std::size_t attempt) const;

 private:
  [[nodiscard]] RequestSent request(std::size_t attempt, AttemptRole role, const CallSpec& call,
                                    bool streamed) const;

  const Client* client_;   // whose hooks run, and count what they throw
  const Client* current_;  // the one the requests go to: whose key comes out of what hooks see
  const Hooks* hooks_;
  CallIdentity identity_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace accord::detail
