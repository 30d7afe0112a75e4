// Kept apart from validate.cpp so a program that only uses from_json_schema does not need emit().
#include "accord/json_schema.hpp"
#include "accord/validate.hpp"
#include "validate/validator_impl.hpp"

namespace accord {

Validator::Validator(const Schema& schema)
    : Validator(detail::make_validator_impl(
          emit(schema.check(), EmitOptions{.dialect = Dialect::draft07}).json, &schema,
          detail::EngineOptions{.default_draft = detail::Draft::draft7})) {}

}  // namespace accord
