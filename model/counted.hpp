// A count with its noun in agreement ("1 entry", "2 entries", "0 data files"), for every message that
// states how many of a thing there are.
#pragma once

#include <string>
#include <string_view>

namespace anvil {

// The plural of an English noun (of the last word of `noun`): "entry" -> "entries", "near miss" ->
// "near misses", "file" -> "files". The nouns messages count are regular in these rules.
inline std::string plural(std::string_view noun) {
  std::string out(noun);
  auto ends = [&](std::string_view tail) { return noun.ends_with(tail); };
  const bool vowel_y =
      noun.size() >= 2 && std::string_view("aeiou").find(noun[noun.size() - 2]) != std::string_view::npos;
  if (ends("y") && !vowel_y) {
    out.back() = 'i';
    out += "es";
  } else if (ends("s") || ends("x") || ends("ch") || ends("sh")) {
    out += "es";
  } else {
    out += "s";
  }
  return out;
}

// "1 entry", "3 entries"; a signed count (a field read from a file) keeps its sign: "-1 entries".
template <class N>
std::string counted(N n, std::string_view noun) {
  return std::to_string(n) + " " + (n == 1 ? std::string(noun) : plural(noun));
}

}  // namespace anvil
