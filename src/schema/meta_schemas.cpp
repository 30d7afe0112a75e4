#include "schema/meta_schemas.hpp"

#include <array>
#include <utility>

namespace accord::detail {
namespace {

constexpr std::string_view kDraft4 = R"json({
  "$schema": "http://json-schema.org/draft-04/schema#",
  "id": "http://json-schema.org/draft-04/schema#",
  "definitions": {
    "schemaArray": {"type": "array", "minItems": 1, "items": {"$ref": "#"}},
    "positiveInteger": {"type": "integer", "minimum": 0},
    "positiveIntegerDefault0": {"allOf": [{"$ref": "#/definitions/positiveInteger"}, {"default": 0}]},
    "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
    "stringArray": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true}
  },
  "type": "object",
  "properties": {
    "id": {"type": "string"},
    "$schema": {"type": "string"},
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": {},
    "multipleOf": {"type": "number", "minimum": 0, "exclusiveMinimum": true},
    "maximum": {"type": "number"},
    "exclusiveMaximum": {"type": "boolean", "default": false},
    "minimum": {"type": "number"},
    "exclusiveMinimum": {"type": "boolean", "default": false},
    "maxLength": {"$ref": "#/definitions/positiveInteger"},
    "minLength": {"$ref": "#/definitions/positiveIntegerDefault0"},
    "pattern": {"type": "string", "format": "regex"},
    "additionalItems": {"anyOf": [{"type": "boolean"}, {"$ref": "#"}], "default": {}},
    "items": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/schemaArray"}], "default": {}},
    "maxItems": {"$ref": "#/definitions/positiveInteger"},
    "minItems": {"$ref": "#/definitions/positiveIntegerDefault0"},
    "uniqueItems": {"type": "boolean", "default": false},
    "maxProperties": {"$ref": "#/definitions/positiveInteger"},
    "minProperties": {"$ref": "#/definitions/positiveIntegerDefault0"},
    "required": {"$ref": "#/definitions/stringArray"},
    "additionalProperties": {"anyOf": [{"type": "boolean"}, {"$ref": "#"}], "default": {}},
    "definitions": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "properties": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "patternProperties": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "dependencies": {"type": "object", "additionalProperties": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/stringArray"}]}},
    "enum": {"type": "array", "minItems": 1, "uniqueItems": true},
    "type": {"anyOf": [
      {"$ref": "#/definitions/simpleTypes"},
      {"type": "array", "items": {"$ref": "#/definitions/simpleTypes"}, "minItems": 1, "uniqueItems": true}
    ]},
    "format": {"type": "string"},
    "allOf": {"$ref": "#/definitions/schemaArray"},
    "anyOf": {"$ref": "#/definitions/schemaArray"},
    "oneOf": {"$ref": "#/definitions/schemaArray"},
    "not": {"$ref": "#"}
  },
  "dependencies": {"exclusiveMaximum": ["maximum"], "exclusiveMinimum": ["minimum"]},
  "default": {}
})json";

constexpr std::string_view kDraft6 = R"json({
  "$schema": "http://json-schema.org/draft-06/schema#",
  "$id": "http://json-schema.org/draft-06/schema#",
  "definitions": {
    "schemaArray": {"type": "array", "minItems": 1, "items": {"$ref": "#"}},
    "nonNegativeInteger": {"type": "integer", "minimum": 0},
    "nonNegativeIntegerDefault0": {"allOf": [{"$ref": "#/definitions/nonNegativeInteger"}, {"default": 0}]},
    "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
    "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "default": []}
  },
  "type": ["object", "boolean"],
  "properties": {
    "$id": {"type": "string", "format": "uri-reference"},
    "$schema": {"type": "string", "format": "uri"},
    "$ref": {"type": "string", "format": "uri-reference"},
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": {},
    "examples": {"type": "array", "items": {}},
    "multipleOf": {"type": "number", "exclusiveMinimum": 0},
    "maximum": {"type": "number"},
    "exclusiveMaximum": {"type": "number"},
    "minimum": {"type": "number"},
    "exclusiveMinimum": {"type": "number"},
    "maxLength": {"$ref": "#/definitions/nonNegativeInteger"},
    "minLength": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "pattern": {"type": "string", "format": "regex"},
    "additionalItems": {"$ref": "#"},
    "items": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/schemaArray"}], "default": {}},
    "maxItems": {"$ref": "#/definitions/nonNegativeInteger"},
    "minItems": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "uniqueItems": {"type": "boolean", "default": false},
    "contains": {"$ref": "#"},
    "maxProperties": {"$ref": "#/definitions/nonNegativeInteger"},
    "minProperties": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "required": {"$ref": "#/definitions/stringArray"},
    "additionalProperties": {"$ref": "#"},
    "definitions": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "properties": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "patternProperties": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "dependencies": {"type": "object", "additionalProperties": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/stringArray"}]}},
    "propertyNames": {"$ref": "#"},
    "const": {},
    "enum": {"type": "array"},
    "type": {"anyOf": [
      {"$ref": "#/definitions/simpleTypes"},
      {"type": "array", "items": {"$ref": "#/definitions/simpleTypes"}, "minItems": 1, "uniqueItems": true}
    ]},
    "format": {"type": "string"},
    "allOf": {"$ref": "#/definitions/schemaArray"},
    "anyOf": {"$ref": "#/definitions/schemaArray"},
    "oneOf": {"$ref": "#/definitions/schemaArray"},
    "not": {"$ref": "#"}
  },
  "default": {}
})json";

constexpr std::string_view kDraft7 = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "http://json-schema.org/draft-07/schema#",
  "definitions": {
    "schemaArray": {"type": "array", "minItems": 1, "items": {"$ref": "#"}},
    "nonNegativeInteger": {"type": "integer", "minimum": 0},
    "nonNegativeIntegerDefault0": {"allOf": [{"$ref": "#/definitions/nonNegativeInteger"}, {"default": 0}]},
    "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
    "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "default": []}
  },
  "type": ["object", "boolean"],
  "properties": {
    "$id": {"type": "string", "format": "uri-reference"},
    "$schema": {"type": "string", "format": "uri"},
    "$ref": {"type": "string", "format": "uri-reference"},
    "$comment": {"type": "string"},
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": true,
    "readOnly": {"type": "boolean"},
    "writeOnly": {"type": "boolean"},
    "examples": {"type": "array", "items": true},
    "multipleOf": {"type": "number", "exclusiveMinimum": 0},
    "maximum": {"type": "number"},
    "exclusiveMaximum": {"type": "number"},
    "minimum": {"type": "number"},
    "exclusiveMinimum": {"type": "number"},
    "maxLength": {"$ref": "#/definitions/nonNegativeInteger"},
    "minLength": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "pattern": {"type": "string", "format": "regex"},
    "additionalItems": {"$ref": "#"},
    "items": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/schemaArray"}]},
    "maxItems": {"$ref": "#/definitions/nonNegativeInteger"},
    "minItems": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "uniqueItems": {"type": "boolean"},
    "contains": {"$ref": "#"},
    "maxProperties": {"$ref": "#/definitions/nonNegativeInteger"},
    "minProperties": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "required": {"$ref": "#/definitions/stringArray"},
    "additionalProperties": {"$ref": "#"},
    "definitions": {"type": "object", "additionalProperties": {"$ref": "#"}},
    "properties": {"type": "object", "additionalProperties": {"$ref": "#"}},
    "patternProperties": {"type": "object", "additionalProperties": {"$ref": "#"}, "propertyNames": {"format": "regex"}},
    "dependencies": {"type": "object", "additionalProperties": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/stringArray"}]}},
    "propertyNames": {"$ref": "#"},
    "const": true,
    "enum": {"type": "array", "items": true},
    "type": {"anyOf": [
      {"$ref": "#/definitions/simpleTypes"},
      {"type": "array", "items": {"$ref": "#/definitions/simpleTypes"}, "minItems": 1, "uniqueItems": true}
    ]},
    "format": {"type": "string"},
    "contentMediaType": {"type": "string"},
    "contentEncoding": {"type": "string"},
    "if": {"$ref": "#"},
    "then": {"$ref": "#"},
    "else": {"$ref": "#"},
    "allOf": {"$ref": "#/definitions/schemaArray"},
    "anyOf": {"$ref": "#/definitions/schemaArray"},
    "oneOf": {"$ref": "#/definitions/schemaArray"},
    "not": {"$ref": "#"}
  }
})json";

constexpr std::string_view k2020 = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/schema",
  "$dynamicAnchor": "meta",
  "allOf": [
    {"$ref": "meta/core"}, {"$ref": "meta/applicator"}, {"$ref": "meta/unevaluated"},
    {"$ref": "meta/validation"}, {"$ref": "meta/meta-data"}, {"$ref": "meta/format-annotation"},
    {"$ref": "meta/content"}
  ],
  "type": ["object", "boolean"],
  "properties": {
    "definitions": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}},
    "dependencies": {"type": "object", "additionalProperties": {"anyOf": [
      {"$dynamicRef": "#meta"}, {"$ref": "meta/validation#/$defs/stringArray"}
    ]}}
  }
})json";

constexpr std::string_view kCore = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/core",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "$id": {"$ref": "#/$defs/uriReferenceString", "pattern": "^[^#]*#?$"},
    "$schema": {"$ref": "#/$defs/uriString"},
    "$ref": {"$ref": "#/$defs/uriReferenceString"},
    "$anchor": {"$ref": "#/$defs/anchorString"},
    "$dynamicRef": {"$ref": "#/$defs/uriReferenceString"},
    "$dynamicAnchor": {"$ref": "#/$defs/anchorString"},
    "$vocabulary": {"type": "object", "propertyNames": {"$ref": "#/$defs/uriString"}, "additionalProperties": {"type": "boolean"}},
    "$comment": {"type": "string"},
    "$defs": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}}
  },
  "$defs": {
    "anchorString": {"type": "string", "pattern": "^[A-Za-z_][-A-Za-z0-9._]*$"},
    "uriString": {"type": "string", "format": "uri"},
    "uriReferenceString": {"type": "string", "format": "uri-reference"}
  }
})json";

constexpr std::string_view kApplicator = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/applicator",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "prefixItems": {"$ref": "#/$defs/schemaArray"},
    "items": {"$dynamicRef": "#meta"},
    "contains": {"$dynamicRef": "#meta"},
    "additionalProperties": {"$dynamicRef": "#meta"},
    "properties": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}},
    "patternProperties": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}, "propertyNames": {"format": "regex"}},
    "dependentSchemas": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}},
    "propertyNames": {"$dynamicRef": "#meta"},
    "if": {"$dynamicRef": "#meta"},
    "then": {"$dynamicRef": "#meta"},
    "else": {"$dynamicRef": "#meta"},
    "allOf": {"$ref": "#/$defs/schemaArray"},
    "anyOf": {"$ref": "#/$defs/schemaArray"},
    "oneOf": {"$ref": "#/$defs/schemaArray"},
    "not": {"$dynamicRef": "#meta"}
  },
  "$defs": {
    "schemaArray": {"type": "array", "minItems": 1, "items": {"$dynamicRef": "#meta"}}
  }
})json";

constexpr std::string_view kUnevaluated = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/unevaluated",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "unevaluatedItems": {"$dynamicRef": "#meta"},
    "unevaluatedProperties": {"$dynamicRef": "#meta"}
  }
})json";

constexpr std::string_view kValidation = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/validation",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "type": {"anyOf": [
      {"$ref": "#/$defs/simpleTypes"},
      {"type": "array", "items": {"$ref": "#/$defs/simpleTypes"}, "minItems": 1, "uniqueItems": true}
    ]},
    "const": true,
    "enum": {"type": "array", "items": true},
    "multipleOf": {"type": "number", "exclusiveMinimum": 0},
    "maximum": {"type": "number"},
    "exclusiveMaximum": {"type": "number"},
    "minimum": {"type": "number"},
    "exclusiveMinimum": {"type": "number"},
    "maxLength": {"$ref": "#/$defs/nonNegativeInteger"},
    "minLength": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
    "pattern": {"type": "string", "format": "regex"},
    "maxItems": {"$ref": "#/$defs/nonNegativeInteger"},
    "minItems": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
    "uniqueItems": {"type": "boolean"},
    "maxContains": {"$ref": "#/$defs/nonNegativeInteger"},
    "minContains": {"$ref": "#/$defs/nonNegativeInteger"},
    "maxProperties": {"$ref": "#/$defs/nonNegativeInteger"},
    "minProperties": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
    "required": {"$ref": "#/$defs/stringArray"},
    "dependentRequired": {"type": "object", "additionalProperties": {"$ref": "#/$defs/stringArray"}}
  },
  "$defs": {
    "nonNegativeInteger": {"type": "integer", "minimum": 0},
    "nonNegativeIntegerDefault0": {"$ref": "#/$defs/nonNegativeInteger", "default": 0},
    "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
    "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "default": []}
  }
})json";

constexpr std::string_view kMetaData = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/meta-data",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": true,
    "deprecated": {"type": "boolean"},
    "readOnly": {"type": "boolean"},
    "writeOnly": {"type": "boolean"},
    "examples": {"type": "array", "items": true}
  }
})json";

constexpr std::string_view kFormatAnnotation = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/format-annotation",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {"format": {"type": "string"}}
})json";

constexpr std::string_view kContent = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/content",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "contentEncoding": {"type": "string"},
    "contentMediaType": {"type": "string"},
    "contentSchema": {"$dynamicRef": "#meta"}
  }
})json";

// 2019-09: the dialect's schema and its vocabularies, which recurse through `$recursiveRef`.
constexpr std::string_view k2019 = R"json({
  "$schema": "https://json-schema.org/draft/2019-09/schema",
  "$id": "https://json-schema.org/draft/2019-09/schema",
  "$vocabulary": {
    "https://json-schema.org/draft/2019-09/vocab/core": true,
    "https://json-schema.org/draft/2019-09/vocab/applicator": true,
    "https://json-schema.org/draft/2019-09/vocab/validation": true,
    "https://json-schema.org/draft/2019-09/vocab/meta-data": true,
    "https://json-schema.org/draft/2019-09/vocab/format": false,
    "https://json-schema.org/draft/2019-09/vocab/content": true
  },
  "$recursiveAnchor": true,
  "allOf": [
    {"$ref": "meta/core"}, {"$ref": "meta/applicator"}, {"$ref": "meta/validation"},
    {"$ref": "meta/meta-data"}, {"$ref": "meta/format"}, {"$ref": "meta/content"}
  ],
  "type": ["object", "boolean"],
  "properties": {
    "definitions": {"type": "object", "additionalProperties": {"$recursiveRef": "#"}, "default": {}},
    "dependencies": {"type": "object", "additionalProperties": {"anyOf": [
      {"$recursiveRef": "#"}, {"$ref": "meta/validation#/$defs/stringArray"}
    ]}}
  }
})json";

constexpr std::string_view k2019Core = R"json({
  "$schema": "https://json-schema.org/draft/2019-09/schema",
  "$id": "https://json-schema.org/draft/2019-09/meta/core",
  "$recursiveAnchor": true,
  "type": ["object", "boolean"],
  "properties": {
    "$id": {"type": "string", "format": "uri-reference", "pattern": "^[^#]*#?$"},
    "$schema": {"type": "string", "format": "uri"},
    "$anchor": {"type": "string", "pattern": "^[A-Za-z][-A-Za-z0-9.:_]*$"},
    "$ref": {"type": "string", "format": "uri-reference"},
    "$recursiveRef": {"type": "string", "format": "uri-reference"},
    "$recursiveAnchor": {"type": "boolean", "default": false},
    "$vocabulary": {"type": "object", "propertyNames": {"type": "string", "format": "uri"}, "additionalProperties": {"type": "boolean"}},
    "$comment": {"type": "string"},
    "$defs": {"type": "object", "additionalProperties": {"$recursiveRef": "#"}, "default": {}}
  }
})json";

constexpr std::string_view k2019Applicator = R"json({
  "$schema": "https://json-schema.org/draft/2019-09/schema",
  "$id": "https://json-schema.org/draft/2019-09/meta/applicator",
  "$recursiveAnchor": true,
  "type": ["object", "boolean"],
  "properties": {
    "additionalItems": {"$recursiveRef": "#"},
    "unevaluatedItems": {"$recursiveRef": "#"},
    "items": {"anyOf": [{"$recursiveRef": "#"}, {"$ref": "#/$defs/schemaArray"}]},
    "contains": {"$recursiveRef": "#"},
    "additionalProperties": {"$recursiveRef": "#"},
    "unevaluatedProperties": {"$recursiveRef": "#"},
    "properties": {"type": "object", "additionalProperties": {"$recursiveRef": "#"}, "default": {}},
    "patternProperties": {"type": "object", "additionalProperties": {"$recursiveRef": "#"}, "propertyNames": {"format": "regex"}, "default": {}},
    "dependentSchemas": {"type": "object", "additionalProperties": {"$recursiveRef": "#"}},
    "propertyNames": {"$recursiveRef": "#"},
    "if": {"$recursiveRef": "#"},
    "then": {"$recursiveRef": "#"},
    "else": {"$recursiveRef": "#"},
    "allOf": {"$ref": "#/$defs/schemaArray"},
    "anyOf": {"$ref": "#/$defs/schemaArray"},
    "oneOf": {"$ref": "#/$defs/schemaArray"},
    "not": {"$recursiveRef": "#"}
  },
  "$defs": {
    "schemaArray": {"type": "array", "minItems": 1, "items": {"$recursiveRef": "#"}}
  }
})json";

constexpr std::string_view k2019Validation = R"json({
  "$schema": "https://json-schema.org/draft/2019-09/schema",
  "$id": "https://json-schema.org/draft/2019-09/meta/validation",
  "$recursiveAnchor": true,
  "type": ["object", "boolean"],
  "properties": {
    "multipleOf": {"type": "number", "exclusiveMinimum": 0},
    "maximum": {"type": "number"},
    "exclusiveMaximum": {"type": "number"},
    "minimum": {"type": "number"},
    "exclusiveMinimum": {"type": "number"},
    "maxLength": {"$ref": "#/$defs/nonNegativeInteger"},
    "minLength": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
    "pattern": {"type": "string", "format": "regex"},
    "maxItems": {"$ref": "#/$defs/nonNegativeInteger"},
    "minItems": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
    "uniqueItems": {"type": "boolean", "default": false},
    "maxContains": {"$ref": "#/$defs/nonNegativeInteger"},
    "minContains": {"$ref": "#/$defs/nonNegativeInteger", "default": 1},
    "maxProperties": {"$ref": "#/$defs/nonNegativeInteger"},
    "minProperties": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
    "required": {"$ref": "#/$defs/stringArray"},
    "dependentRequired": {"type": "object", "additionalProperties": {"$ref": "#/$defs/stringArray"}},
    "const": true,
    "enum": {"type": "array", "items": true},
    "type": {"anyOf": [
      {"$ref": "#/$defs/simpleTypes"},
      {"type": "array", "items": {"$ref": "#/$defs/simpleTypes"}, "minItems": 1, "uniqueItems": true}
    ]}
  },
  "$defs": {
    "nonNegativeInteger": {"type": "integer", "minimum": 0},
    "nonNegativeIntegerDefault0": {"$ref": "#/$defs/nonNegativeInteger", "default": 0},
    "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
    "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "default": []}
  }
})json";

constexpr std::string_view k2019MetaData = R"json({
  "$schema": "https://json-schema.org/draft/2019-09/schema",
  "$id": "https://json-schema.org/draft/2019-09/meta/meta-data",
  "$recursiveAnchor": true,
  "type": ["object", "boolean"],
  "properties": {
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": true,
    "deprecated": {"type": "boolean", "default": false},
    "readOnly": {"type": "boolean", "default": false},
    "writeOnly": {"type": "boolean", "default": false},
    "examples": {"type": "array", "items": true}
  }
})json";

constexpr std::string_view k2019Format = R"json({
  "$schema": "https://json-schema.org/draft/2019-09/schema",
  "$id": "https://json-schema.org/draft/2019-09/meta/format",
  "$recursiveAnchor": true,
  "type": ["object", "boolean"],
  "properties": {"format": {"type": "string"}}
})json";

constexpr std::string_view k2019Content = R"json({
  "$schema": "https://json-schema.org/draft/2019-09/schema",
  "$id": "https://json-schema.org/draft/2019-09/meta/content",
  "$recursiveAnchor": true,
  "type": ["object", "boolean"],
  "properties": {
    "contentMediaType": {"type": "string"},
    "contentEncoding": {"type": "string"},
    "contentSchema": {"$recursiveRef": "#"}
  }
})json";

constexpr std::array<std::pair<std::string_view, std::string_view>, 18> kKnownMetaSchemas = {{
    {"http://json-schema.org/draft-04/schema", kDraft4},
    {"http://json-schema.org/draft-06/schema", kDraft6},
    {"http://json-schema.org/draft-07/schema", kDraft7},
    {"https://json-schema.org/draft/2019-09/schema", k2019},
    {"https://json-schema.org/draft/2019-09/meta/core", k2019Core},
    {"https://json-schema.org/draft/2019-09/meta/applicator", k2019Applicator},
    {"https://json-schema.org/draft/2019-09/meta/validation", k2019Validation},
    {"https://json-schema.org/draft/2019-09/meta/meta-data", k2019MetaData},
    {"https://json-schema.org/draft/2019-09/meta/format", k2019Format},
    {"https://json-schema.org/draft/2019-09/meta/content", k2019Content},
    {"https://json-schema.org/draft/2020-12/schema", k2020},
    {"https://json-schema.org/draft/2020-12/meta/core", kCore},
    {"https://json-schema.org/draft/2020-12/meta/applicator", kApplicator},
    {"https://json-schema.org/draft/2020-12/meta/unevaluated", kUnevaluated},
    {"https://json-schema.org/draft/2020-12/meta/validation", kValidation},
    {"https://json-schema.org/draft/2020-12/meta/meta-data", kMetaData},
    {"https://json-schema.org/draft/2020-12/meta/format-annotation", kFormatAnnotation},
    {"https://json-schema.org/draft/2020-12/meta/content", kContent},
}};

}  // namespace

std::string_view meta_schema(std::string_view uri) {
  for (const auto& [known, text] : kKnownMetaSchemas) {
    if (known == uri) return text;
  }
  return {};
}

}  // namespace accord::detail
