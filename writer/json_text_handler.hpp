// A RapidJSON text writer that prints every double holding an exact f32 as the shortest decimal that
// reads back as that f32 (FORMAT.md section 4: `0.1`, not `0.10000000149011612`; `-0.0` kept).
#pragma once

#include <rapidjson/writer.h>

#include <cmath>
#include <limits>
#include <string>

#include "model/json_text.hpp"

namespace anvil {

template <class OutputStream>
class JsonTextHandler : public rapidjson::Writer<OutputStream> {
  using Base = rapidjson::Writer<OutputStream>;

 public:
  explicit JsonTextHandler(OutputStream& os) : Base(os) {}

  bool Double(double d) {
    if (std::isfinite(d) && std::fabs(d) <= std::numeric_limits<float>::max() &&
        static_cast<double>(static_cast<float>(d)) == d) {
      float f = static_cast<float>(d);
      scratch_.clear();
      json_text::append_f32(scratch_, f);
      return Base::RawValue(scratch_.data(), scratch_.size(), rapidjson::kNumberType);
    }
    return Base::Double(d);
  }

 private:
  std::string scratch_;
};

}  // namespace anvil
