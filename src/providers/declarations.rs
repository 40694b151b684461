//! The input schema of each tool a request declares, in every provider's
//! and SDK's shape, for checking tool calls before they run.
//!
//! The reader hands the core the declarations as JSON; the core answers
//! with each tool's name and the JSON Pointer of its input schema within
//! them, so the facade can take the schema object itself from the live
//! declarations (and find its compiled validator by identity).

use serde_json::Value;

/// One declared tool: its name, and where its input schema is (`None`: the
/// tool takes no arguments, so any object is fine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    pub name: String,
    pub schema_pointer: Option<String>,
}

/// Where a whole request keeps its tool declarations, in the order they
/// are read (a name declared twice is the first one's): each provider's
/// `declaration_paths`, each place once, in the order of
/// [`super::PROVIDERS`]. The facade reads a request's declarations here by
/// property access, and hands the core each list or record it finds
/// ([`declared_in`]), never the whole request.
pub const DECLARATION_PATHS: [&[&str]; super::declaration_path_count()] =
    super::declaration_paths();

/// Every tool declared in `tools`: a list or record of declarations in any
/// shape, or a whole request (read at [`DECLARATION_PATHS`]).
#[must_use]
pub fn declared_tools(tools: &Value) -> Vec<Declared> {
    let mut found = Vec::new();
    if let Value::Object(map) = tools {
        // A whole request: its declarations.
        let mut any = false;
        for path in DECLARATION_PATHS {
            let mut node = Some(tools);
            for key in path {
                node = node.and_then(|n| n.get(*key));
            }
            if let Some(list) = node.filter(|n| n.is_array() || n.is_object()) {
                any = true;
                collect(list, &pointer_of(path), &mut found);
            }
        }
        if any || map.is_empty() {
            return found;
        }
        // One declaration, or an AI SDK tools record keyed by name.
        if declaration(tools, "").is_some() {
            collect(&Value::Array(vec![tools.clone()]), "", &mut found);
            // The pointer must address the value itself, not an array element.
            for tool in &mut found {
                tool.schema_pointer = tool
                    .schema_pointer
                    .as_ref()
                    .and_then(|p| p.strip_prefix("/0").map(str::to_owned));
            }
            return found;
        }
    }
    collect(tools, "", &mut found);
    found
}

/// The tools declared in `list`, a list or record found at one of a
/// request's [`DECLARATION_PATHS`], with pointers into `list` itself.
#[must_use]
pub fn declared_in(list: &Value) -> Vec<Declared> {
    let mut found = Vec::new();
    collect(list, "", &mut found);
    found
}

fn pointer_of(path: &[&str]) -> String {
    path.iter().map(|key| format!("/{}", escape(key))).collect()
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The declarations in a list, or in a record keyed by tool name (the AI
/// SDK's `tools`).
fn collect(list: &Value, at: &str, found: &mut Vec<Declared>) {
    match list {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let here = format!("{at}/{i}");
                // Gemini groups function declarations in a tool.
                if let Some(group) = item.get(RULES.group).and_then(Value::as_array) {
                    for (j, function) in group.iter().enumerate() {
                        if let Some(tool) =
                            declaration(function, &format!("{here}/{}/{j}", RULES.group))
                        {
                            found.push(tool);
                        }
                    }
                } else if let Some(tool) = declaration(item, &here) {
                    found.push(tool);
                }
            }
        }
        Value::Object(record) => {
            for (name, tool) in record {
                let here = format!("{at}/{}", escape(name));
                if let Some(mut declared) = declaration(tool, &here) {
                    declared.name.clone_from(name);
                    found.push(declared);
                } else if let Some(pointer) = ai_sdk_schema(tool, &here) {
                    found.push(Declared {
                        name: name.clone(),
                        schema_pointer: Some(pointer),
                    });
                }
            }
        }
        _ => {}
    }
}

/// How one declaration is read, in every shape: the rules [`declaration`]
/// follows and the facade's reader of live declaration lists
/// (js/declarations.mjs) follows too, handed to it in `requestPlan()`, so
/// that a list is read by property access, its schemas never serialised.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeclarationRules {
    /// A list item holding its declarations in a list under this member
    /// (Gemini's tools group function declarations).
    pub group: &'static str,
    /// Members that hold the declaration, tried in order: the first that
    /// holds an object decides, the name a string at `name` in it (or the
    /// item declares nothing), the schema at the path given, if present
    /// (OpenAI Chat's `function`, Bedrock Converse's `toolSpec`).
    pub holders: &'static [(&'static str, &'static [&'static str])],
    /// Where a declaration keeps its name.
    pub name: &'static str,
    /// Otherwise, the first of these members present is the schema, and
    /// the declaration needs a name (Responses and legacy functions,
    /// Gemini, Anthropic, MCP, the AI SDK).
    pub schema_keys: &'static [&'static str],
    /// A schema that holds an object or a boolean at this member wraps the
    /// schema there (the AI SDK's `jsonSchema()`).
    pub inner: &'static str,
    /// Otherwise, a name and this member present, or `kind` (a member and
    /// its value) declare a tool that takes no parameters.
    pub described: &'static str,
    pub kind: (&'static str, &'static str),
    /// In a record keyed by tool name, a member no rule above reads: the
    /// first of these present is its schema (the AI SDK's `tool()`).
    pub record_keys: &'static [&'static str],
}

pub const RULES: DeclarationRules = DeclarationRules {
    group: "functionDeclarations",
    holders: &[
        ("function", &["parameters"]),
        ("toolSpec", &["inputSchema", "json"]),
    ],
    name: "name",
    schema_keys: &[
        "parameters",
        "parametersJsonSchema",
        "input_schema",
        "inputSchema",
    ],
    inner: "jsonSchema",
    described: "description",
    kind: ("type", "function"),
    record_keys: &["inputSchema", "parameters"],
};

/// One tool declaration at `at`: its name and its schema's pointer.
fn declaration(tool: &Value, at: &str) -> Option<Declared> {
    // OpenAI Chat: { type: "function", function: { name, parameters } };
    // Bedrock Converse: { toolSpec: { name, inputSchema: { json } } }.
    for (holder, path) in RULES.holders {
        if let Some(inner) = tool.get(*holder).filter(|h| h.is_object()) {
            let name = inner.get(RULES.name)?.as_str()?.to_owned();
            let schema_pointer =
                path.iter()
                    .try_fold(inner, |node, key| node.get(*key))
                    .map(|_| {
                        let mut pointer = format!("{at}/{}", escape(holder));
                        for key in *path {
                            pointer.push('/');
                            pointer.push_str(&escape(key));
                        }
                        pointer
                    });
            return Some(Declared {
                name,
                schema_pointer,
            });
        }
    }
    let name = tool
        .get(RULES.name)
        .and_then(Value::as_str)
        .map(str::to_owned);
    for key in RULES.schema_keys {
        if let Some(schema) = tool.get(*key) {
            let name = name?;
            let pointer = format!("{at}/{key}");
            let schema_pointer = match ai_sdk_inner(schema) {
                Some(inner) => Some(format!("{pointer}/{inner}")),
                None => Some(pointer),
            };
            return Some(Declared {
                name,
                schema_pointer,
            });
        }
    }
    // A declaration without parameters (a tool that takes none).
    let described = tool.get(RULES.described).is_some()
        || tool.get(RULES.kind.0).and_then(Value::as_str) == Some(RULES.kind.1);
    match name {
        Some(name) if described => Some(Declared {
            name,
            schema_pointer: None,
        }),
        _ => None,
    }
}

/// The AI SDK's `tool({ inputSchema })` in a record keyed by name.
fn ai_sdk_schema(tool: &Value, at: &str) -> Option<String> {
    let (key, schema) = RULES
        .record_keys
        .iter()
        .find_map(|key| tool.get(*key).map(|schema| (*key, schema)))?;
    Some(match ai_sdk_inner(schema) {
        Some(inner) => format!("{at}/{key}/{inner}"),
        None => format!("{at}/{key}"),
    })
}

/// An AI SDK `jsonSchema()` wrapper keeps the schema in `jsonSchema`.
fn ai_sdk_inner(schema: &Value) -> Option<&'static str> {
    schema
        .get(RULES.inner)
        .filter(|inner| inner.is_object() || inner.is_boolean())
        .map(|_| RULES.inner)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests;
