//! Where a request keeps the schema it gives the provider, for every
//! provider and SDK shape.
//!
//! `guardedCall` and `guardedStream` check against this schema when the
//! caller gives no `schema` option, so the contract the provider was told
//! and the one the guard checks cannot drift apart. The JavaScript reader
//! walks a live request along these paths (getters and class instances
//! included), in this order, and takes the first schema it finds: an
//! object at a member path, or the schema of the tool a forced tool choice
//! names (whose name then says which tool call carries the output).

use serde::Serialize;

use hot_path::schema::Dialect;

/// A forced tool choice: where the choice is, what it says, and where the
/// tool it names keeps its name, schema and strict flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Forced {
    /// The choice, from the request.
    pub choice: &'static [&'static str],
    /// The choice's `type` when it forces one tool.
    pub choice_type: &'static str,
    /// The forced tool's name, within the choice.
    pub choice_name: &'static [&'static str],
    /// The list of tools, from the request.
    pub tools: &'static [&'static str],
    /// A tool's name, within the tool.
    pub tool_name: &'static [&'static str],
}

/// One place a request keeps its schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SchemaSource {
    /// How the place is named to people (the TypeError of a request without
    /// a schema lists them).
    pub name: &'static str,
    /// The schema: from the request, or within the forced tool.
    pub schema: &'static [&'static str],
    /// The provider's `strict` flag, where the schema has one: from the
    /// request, or within the forced tool.
    pub strict: Option<&'static [&'static str]>,
    pub forced: Option<Forced>,
    /// The dialect the provider reads the schema in.
    pub dialect: Dialect,
    /// A member of the schema whose presence makes it JSON Schema after all
    /// (`@google/genai` sends a `responseSchema` with `$schema` as
    /// `responseJsonSchema`).
    pub json_schema_with: Option<&'static str>,
}

const fn member(
    name: &'static str,
    schema: &'static [&'static str],
    strict: Option<&'static [&'static str]>,
    dialect: Dialect,
) -> SchemaSource {
    SchemaSource {
        name,
        schema,
        strict,
        forced: None,
        dialect,
        json_schema_with: None,
    }
}

/// Every place a request keeps its schema, in the order they are tried: a
/// forced tool first (its call, not the text, carries the output), then
/// the response formats. The tests below and
/// tests/js/providers/request-schema.test.mjs have a case per shape.
pub const SCHEMA_SOURCES: [SchemaSource; 10] = [
    // Anthropic Messages: `tool_choice: { type: "tool", name }`.
    SchemaSource {
        name: "tool_choice (Anthropic's forced tool's input_schema)",
        schema: &["input_schema"],
        strict: Some(&["strict"]),
        forced: Some(Forced {
            choice: &["tool_choice"],
            choice_type: "tool",
            choice_name: &["name"],
            tools: &["tools"],
            tool_name: &["name"],
        }),
        dialect: Dialect::JsonSchema,
        json_schema_with: None,
    },
    // OpenAI Chat: `tool_choice: { type: "function", function: { name } }`.
    SchemaSource {
        name: "tool_choice (OpenAI Chat's forced function's parameters)",
        schema: &["function", "parameters"],
        strict: Some(&["function", "strict"]),
        forced: Some(Forced {
            choice: &["tool_choice"],
            choice_type: "function",
            choice_name: &["function", "name"],
            tools: &["tools"],
            tool_name: &["function", "name"],
        }),
        dialect: Dialect::JsonSchema,
        json_schema_with: None,
    },
    // OpenAI Responses: `tool_choice: { type: "function", name }`.
    SchemaSource {
        name: "tool_choice (OpenAI Responses' forced function's parameters)",
        schema: &["parameters"],
        strict: Some(&["strict"]),
        forced: Some(Forced {
            choice: &["tool_choice"],
            choice_type: "function",
            choice_name: &["name"],
            tools: &["tools"],
            tool_name: &["name"],
        }),
        dialect: Dialect::JsonSchema,
        json_schema_with: None,
    },
    // OpenAI Chat (and compatible APIs): `response_format: { type:
    // "json_schema", json_schema: { name, schema, strict } }`.
    member(
        "response_format.json_schema.schema",
        &["response_format", "json_schema", "schema"],
        Some(&["response_format", "json_schema", "strict"]),
        Dialect::JsonSchema,
    ),
    // OpenAI Responses: `text: { format: { type: "json_schema", name, schema, strict } }`.
    member(
        "text.format.schema",
        &["text", "format", "schema"],
        Some(&["text", "format", "strict"]),
        Dialect::JsonSchema,
    ),
    // @google/genai generateContent.
    member(
        "config.responseJsonSchema",
        &["config", "responseJsonSchema"],
        None,
        Dialect::JsonSchema,
    ),
    SchemaSource {
        json_schema_with: Some("$schema"),
        ..member(
            "config.responseSchema",
            &["config", "responseSchema"],
            None,
            Dialect::Gemini,
        )
    },
    // The Gemini REST API's request body.
    member(
        "generationConfig.responseJsonSchema",
        &["generationConfig", "responseJsonSchema"],
        None,
        Dialect::JsonSchema,
    ),
    member(
        "generationConfig.responseSchema",
        &["generationConfig", "responseSchema"],
        None,
        Dialect::Gemini,
    ),
    // Ollama's /api/chat and /api/generate: `format` is "json" or a schema.
    member("format", &["format"], None, Dialect::JsonSchema),
];

#[cfg(test)]
mod tests;
