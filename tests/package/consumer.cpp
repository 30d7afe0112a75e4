// A program that lives outside accord's tree and sees only an installed accord: its headers, its
// library and whatever the CMake package or accord.pc says it needs. tests/package/run.sh builds it
// both ways and checks what it prints.
#include <accord/path.hpp>
#include <accord/version.hpp>
#include <cstddef>
#include <iostream>

#ifndef ACCORD_CONSUMER_SCHEMA
#define ACCORD_CONSUMER_SCHEMA 1
#endif
#if ACCORD_CONSUMER_SCHEMA
// The umbrella header: every public header is installed and needs nothing from accord's sources.
#include <accord/accord.hpp>
#endif

static_assert(ACCORD_VERSION ==
              ACCORD_VERSION_MAJOR * 10000 + ACCORD_VERSION_MINOR * 100 + ACCORD_VERSION_PATCH);

int main() {
  std::cout << "accord " << accord::version() << '\n';
  // Path lives in the compiled library, so printing it proves the link, not just the headers.
  const accord::Path where = accord::Path{"items"} / std::size_t{0} / "name";
  std::cout << "path " << where.to_string() << '\n';
#if ACCORD_CONSUMER_SCHEMA
  const accord::Schema contact = accord::object({
      {"name", accord::string().min(1)},
      {"email", accord::string().email()},
  });
  std::cout << "schema " << accord::emit(contact).json.dump() << '\n';
#endif
  return 0;
}
