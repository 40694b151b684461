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

/// A schema kept at a member of the request.
pub const fn member(
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
/// the response formats, each provider's (`src/providers/<provider>.rs`,
/// its `schema_sources`) in the order of [`super::PROVIDERS`]. The tests
/// here and tests/js/providers/request-schema.test.mjs have a case per shape.
pub const SCHEMA_SOURCES: [SchemaSource; super::schema_source_count()] = super::schema_sources();

#[cfg(test)]
mod tests;
