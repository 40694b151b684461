//! Repair feedback: the one message a repair retry adds to the request.
//!
//! It tells the model what to fix — each failing path, the keyword that
//! failed and the constraint the schema sets there — and nothing else. It
//! never quotes the model's output: the output may hold whatever the model
//! was shown, and echoing it back invites the model to repeat it. What it
//! does quote (paths, which hold the model's object keys, and schema values,
//! which may hold anything someone pasted into a schema) passes through
//! `redact_secrets`.

use serde_json::{Map, Value};

use crate::error::ArgumentError;
use crate::error::Failure;
use crate::verdict::unwrap_response_format;
use hot_path::redact::{redact_pointer, redact_secrets};
use hot_path::schema::{type_name, Dialect};

/// At most this many problems are listed; the verdict's own cap usually
/// keeps the list shorter.
const MAX_LINES: usize = 20;
/// Longer paths and values are shortened so one line stays one line.
const MAX_QUOTE_CHARS: usize = 120;

/// The feedback text for a failed verdict (as `checkOutput` returns it),
/// with constraints read from `schema` where the verdict's schema paths
/// lead (a response-format wrapper is unwrapped), in the dialect its shape
/// tells.
pub fn repair_feedback(verdict: &Value, schema: Option<&Value>) -> Result<String, ArgumentError> {
    repair_feedback_in(verdict, schema, None)
}

/// [`repair_feedback`] with the schema read in `dialect` (`None`: the one
/// its shape tells): constraints are worded from the JSON Schema it means,
/// so a nullable string "must be a string or null", and Gemini's
/// `minItems: "1"` "must have at least 1 items".
pub fn repair_feedback_in(
    verdict: &Value,
    schema: Option<&Value>,
    dialect: Option<Dialect>,
) -> Result<String, ArgumentError> {
    let map = verdict.as_object().ok_or_else(|| {
        ArgumentError::new(format!(
            "repairFeedback needs a verdict object, not {}",
            type_name(verdict)
        ))
    })?;
    if map.get("ok") == Some(&Value::Bool(true)) {
        return Err(ArgumentError::new(
            "repairFeedback needs a failed verdict; this one was accepted",
        ));
    }
    let failure = map
        .get("failure")
        .and_then(Value::as_str)
        .and_then(Failure::parse)
        .ok_or_else(|| {
            ArgumentError::new(
                "repairFeedback needs a verdict from checkOutput: its \"failure\" is missing or unknown",
            )
        })?;
    let schema = schema.map(|s| unwrap_response_format(s).0);
    // A schema that does not translate was not the one checked: its own
    // words are better than none.
    let meant = schema.and_then(|s| {
        crate::dialect::translate(s, dialect.unwrap_or_else(|| crate::dialect::detect(s)))
            .ok()
            .flatten()
    });
    let schema = meant.as_ref().map(|t| &t.schema).or(schema);
    let issues = match map.get("errors") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(items)) => items.as_slice(),
        Some(other) => {
            return Err(ArgumentError::new(format!(
                "the verdict's errors must be an array, not {}",
                type_name(other)
            )))
        }
    };
    let more = map.get("moreErrors") == Some(&Value::Bool(true));
    Ok(match failure {
        Failure::Truncated => "Your previous response was cut off at the output token limit, so its JSON was incomplete. Reply again with the complete JSON object, short enough to fit.".to_owned(),
        Failure::Empty => "Your previous response was empty. Reply with the JSON object that the schema asks for, and nothing else.".to_owned(),
        Failure::Unparseable => "Your previous response was not valid JSON. Reply with one JSON object only: no commentary, no Markdown, no trailing commas or comments.".to_owned(),
        Failure::NotObject => "Your previous response was valid JSON but not a JSON object. Reply with one JSON object that matches the schema.".to_owned(),
        Failure::Schema => listing(
            "Your previous response did not match the required JSON schema. Reply with the corrected JSON object only, fixing these problems:",
            issues,
            schema,
            more,
        )?,
        Failure::Rule => listing(
            "Your previous response matched the schema but broke these rules. Reply with the corrected JSON object only:",
            issues,
            schema,
            more,
        )?,
    })
}

/// The feedback for each refused call of a tool-calls verdict (as
/// `checkToolCalls` returns it): `(id, text)` in the verdict's order, with
/// constraints read from the schema of the tool each call names
/// (`schemas`: name → input schema). Never a value from the arguments; tool
/// names the model wrote are named only when they are plain identifiers.
pub fn tool_calls_feedback(
    verdict: &Value,
    schemas: &Map<String, Value>,
) -> Result<Vec<(Option<String>, String)>, ArgumentError> {
    let calls = verdict
        .get("calls")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            ArgumentError::new(
                "repairFeedback needs a verdict from checkToolCalls: its \"calls\" is missing",
            )
        })?;
    let mut out = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        let Some(call) = call.as_object() else {
            return Err(ArgumentError::new(format!(
                "the verdict's calls[{i}] must be an object"
            )));
        };
        if call.get("ok") == Some(&Value::Bool(true)) {
            continue;
        }
        let id = call.get("id").and_then(Value::as_str).map(str::to_owned);
        let name = str_member(call, "name");
        let tool = if plain_name(name) {
            format!("\"{name}\"")
        } else {
            "the tool you named".to_owned()
        };
        let issues = match call.get("errors") {
            Some(Value::Array(items)) => items.as_slice(),
            _ => &[][..],
        };
        let more = call.get("moreErrors") == Some(&Value::Bool(true));
        let text = match str_member(call, "failure") {
            "unknown_tool" => format!("You called {tool}, which is not one of your tools; nothing was run. Call only the tools you were given."),
            "truncated" => format!("Your call of {tool} was cut off at the output token limit, so its arguments were incomplete; nothing was run. Call it again with complete, shorter arguments."),
            "unparseable" => format!("The arguments of your call of {tool} were not valid JSON; nothing was run. Call it again with one JSON object as its arguments."),
            "not_object" => format!("The arguments of your call of {tool} were not a JSON object; nothing was run. Call it again with a JSON object that matches its input schema."),
            "schema" => listing(
                &format!("The arguments of your call of {tool} did not match its input schema; nothing was run. Call it again, fixing these problems:"),
                issues,
                schemas.get(name).map(|s| unwrap_response_format(s).0),
                more,
            )?,
            other => {
                return Err(ArgumentError::new(format!(
                    "the verdict's calls[{i}] has an unknown failure {}",
                    Value::String(other.chars().take(40).collect())
                )))
            }
        };
        out.push((id, redact_secrets(&text).into_owned()));
    }
    Ok(out)
}

fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
}

fn listing(
    header: &str,
    issues: &[Value],
    schema: Option<&Value>,
    more: bool,
) -> Result<String, ArgumentError> {
    let mut text = String::from(header);
    for (i, issue) in issues.iter().take(MAX_LINES).enumerate() {
        let Some(issue) = issue.as_object() else {
            return Err(ArgumentError::new(format!(
                "the verdict's errors[{i}] must be an issue object"
            )));
        };
        text.push_str("\n- ");
        text.push_str(&line(issue, schema));
    }
    if more || issues.len() > MAX_LINES {
        text.push_str("\n- and more problems like these: check every field against the schema.");
    }
    Ok(redact_secrets(&text).into_owned())
}

fn str_member<'a>(issue: &'a Map<String, Value>, key: &str) -> &'a str {
    issue.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// `- /observations/0/type (enum): must be one of: fact, decision, question`,
/// safe to print (the path is the model's, the schema's words anyone's).
fn line(issue: &Map<String, Value>, schema: Option<&Value>) -> String {
    hot_path::display::escape_for_display(&unescaped_line(issue, schema))
}

fn unescaped_line(issue: &Map<String, Value>, schema: Option<&Value>) -> String {
    let path = str_member(issue, "path");
    let place = if path.is_empty() {
        "the top-level object".to_owned()
    } else {
        shorten(&redact_pointer(path))
    };
    let code = str_member(issue, "code");
    let message = str_member(issue, "message");
    if code == crate::error::RULE_ISSUE_CODE {
        let name = str_member(issue, "rule");
        return format!("{place} (rule \"{}\"): {}", shorten(name), shorten(message));
    }
    let keyword = schema.and_then(|s| resolve(s, str_member(issue, "schemaPath")));
    let params = issue.get("params");
    let constraint = keyword
        .and_then(|(value, parent)| constraint(code, value, parent, params))
        .unwrap_or_else(|| predicate(message));
    format!("{place} ({}): {constraint}", shorten(code))
}

/// The keyword value a schema path leads to, and the schema object holding
/// it. Local `$ref`s along the path are followed; anything else that does
/// not resolve gives `None`, and the issue's own message is used instead.
fn resolve<'a>(root: &'a Value, pointer: &str) -> Option<(&'a Value, &'a Map<String, Value>)> {
    let mut node = root;
    let mut parent: Option<&Map<String, Value>> = None;
    let segments: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    // A `$ref` chain can loop; a path is never longer than this many hops.
    let mut hops = 0;
    for segment in &segments {
        if segment == "$ref" {
            let target = node.get("$ref").and_then(Value::as_str)?;
            let local = target.strip_prefix('#')?;
            hops += 1;
            if hops > 64 {
                return None;
            }
            node = root.pointer(local)?;
            continue;
        }
        let map = node.as_object();
        parent = map;
        node = match node {
            Value::Object(m) => m.get(segment)?,
            Value::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some((node, parent?))
}

/// The constraint a keyword sets, in words, from the schema's own value.
fn constraint(
    code: &str,
    value: &Value,
    parent: &Map<String, Value>,
    params: Option<&Value>,
) -> Option<String> {
    let number = || value.as_number().map(ToString::to_string);
    let count = || value.as_u64();
    Some(match code {
        "enum" => format!("must be one of: {}", list(value.as_array()?)),
        "const" => format!("must be exactly {}", quote(value)),
        "type" => match value {
            Value::String(t) => format!("must be {}", article(t)),
            Value::Array(types) => {
                let names: Vec<String> = types
                    .iter()
                    .filter_map(Value::as_str)
                    .map(shorten)
                    .collect();
                format!("must be {}", hot_path::schema::alternatives(&names))
            }
            _ => return None,
        },
        "minLength" => format!("must be at least {} characters long", count()?),
        "maxLength" => format!("must be at most {} characters long", count()?),
        "minimum" => format!("must be at least {}", number()?),
        "maximum" => format!("must be at most {}", number()?),
        "exclusiveMinimum" => format!("must be greater than {}", number()?),
        "exclusiveMaximum" => format!("must be less than {}", number()?),
        "multipleOf" => format!("must be a multiple of {}", number()?),
        "minItems" => format!("must have at least {} items", count()?),
        "maxItems" => format!("must have at most {} items", count()?),
        "minProperties" => format!("must have at least {} properties", count()?),
        "maxProperties" => format!("must have at most {} properties", count()?),
        "uniqueItems" => "must not contain duplicate items".to_owned(),
        "pattern" => format!(
            "must match the regular expression {}",
            shorten(value.as_str()?)
        ),
        "format" => format!("must be {}", format_phrase(value.as_str()?)),
        "required" => {
            let names = value.as_array()?;
            // The issue names the property it misses; one the schema lists.
            match params
                .and_then(|p| p.get("missingProperty"))
                .filter(|n| names.contains(n))
            {
                Some(one) => format!("must have the property {}", quote(one)),
                None => format!("must have all of the properties: {}", list(names)),
            }
        }
        "additionalProperties" | "unevaluatedProperties" if value == &Value::Bool(false) => {
            match parent.get("properties").and_then(Value::as_object) {
                Some(props) if !props.is_empty() => {
                    let names: Vec<Value> =
                        props.keys().map(|k| Value::String(k.clone())).collect();
                    format!("must have no properties other than: {}", list(&names))
                }
                _ => "must have no properties beyond those the schema defines".to_owned(),
            }
        }
        _ => return None,
    })
}

/// The part of an issue message after its subject ("The value at /a must
/// be ..." → "must be ..."), which is written from the schema.
fn predicate(message: &str) -> String {
    let body = message.strip_suffix('.').unwrap_or(message);
    let rest = if let Some(rest) = body.strip_prefix("The response ") {
        rest
    } else if let Some(after) = body.strip_prefix("The value at ") {
        // The subject's path is already on the line: skip up to the verb.
        let verbs = [" must ", " is ", " has ", " could "];
        verbs
            .iter()
            .filter_map(|v| after.find(v).map(|at| (at, v)))
            .min_by_key(|(at, _)| *at)
            .and_then(|(at, _)| after.get(at + 1..))
            .unwrap_or(after)
    } else {
        body
    };
    shorten(rest)
}

fn format_phrase(format: &str) -> String {
    let hint = match format {
        "date-time" => "an RFC 3339 date-time with a time zone, such as 2026-01-31T09:30:00Z",
        "date" => "a full date, such as 2026-01-31",
        "time" => "an RFC 3339 time with a time zone, such as 09:30:00Z",
        "duration" => "an ISO 8601 duration, such as P3DT4H",
        "email" => "an email address, such as name@example.com",
        "idn-email" => "an email address (international characters allowed)",
        "hostname" => "a host name, such as api.example.com",
        "idn-hostname" => "a host name (international characters allowed)",
        "ipv4" => "an IPv4 address, such as 192.0.2.1",
        "ipv6" => "an IPv6 address, such as 2001:db8::1",
        "uri" => "an absolute URI with a scheme, such as https://example.com/a",
        "uri-reference" => "a URI or relative reference",
        "iri" => "an absolute IRI",
        "uuid" => "a UUID, such as 123e4567-e89b-12d3-a456-426614174000",
        "regex" => "a valid regular expression",
        "json-pointer" => "a JSON Pointer, such as /a/0",
        _ => "",
    };
    if hint.is_empty() {
        format!(
            "a valid {} (format \"{}\")",
            shorten(format),
            shorten(format)
        )
    } else {
        format!("{hint} (format \"{format}\")")
    }
}

fn article(type_name: &str) -> String {
    match type_name {
        "null" => "null".to_owned(),
        "array" | "object" | "integer" => format!("an {type_name}"),
        other => format!("a {}", shorten(other)),
    }
}

/// Schema values in a list: strings bare (as the model would write them
/// inside quotes), everything else as JSON.
fn list(values: &[Value]) -> String {
    const SHOWN: usize = 20;
    let mut parts: Vec<String> = values
        .iter()
        .take(SHOWN)
        .map(|v| match v {
            Value::String(s) => shorten(s),
            other => quote(other),
        })
        .collect();
    if values.len() > SHOWN {
        parts.push(format!("and {} more", values.len() - SHOWN));
    }
    parts.join(", ")
}

fn quote(value: &Value) -> String {
    shorten(&value.to_string())
}

fn shorten(text: &str) -> String {
    // Redacted before it is shortened: a credential cut short is no longer
    // recognisable as one.
    let text = redact_secrets(text);
    if text.chars().count() <= MAX_QUOTE_CHARS {
        text.into_owned()
    } else {
        let cut: String = text.chars().take(MAX_QUOTE_CHARS).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests;
