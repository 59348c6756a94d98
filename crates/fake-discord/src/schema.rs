//! Checks every JSON body the bot sends against Discord's own OpenAPI description, so a
//! request the real Discord would refuse fails the test here instead of in production. The
//! spec is vendored in `crates/fake-discord/discord-api-spec/` and read only from there (or from
//! `DISCORD_OPENAPI_SPEC`), so a clone of this repository alone passes its tests; that the
//! copy matches its upstream is checked by hand with `scripts/check-vendored.sh`.
//!
//! The spec uses a small subset of JSON Schema (2020-12): `$ref` to `#/components/schemas`,
//! `type` (a name or a list), `const`, `enum`, `properties`, `required`,
//! `additionalProperties`, `items`, `min/maxItems`, `uniqueItems`, `min/maxLength`,
//! `minimum`/`maximum`, `min/maxProperties`, `pattern`, `format`, `allOf`, `anyOf`, `oneOf`.
//! That subset is implemented below; a keyword outside it is reported as an error rather
//! than skipped, so a spec update cannot silently weaken the check.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;

/// Where a body broke the schema: a JSON pointer into the body and what was wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    pub at: String,
    pub problem: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.at.is_empty() { "/" } else { &self.at };
        write!(f, "at {at}: {}", self.problem)
    }
}

/// The loaded spec plus its path templates, ready for matching request paths.
pub struct ApiSpec {
    doc: Value,
    routes: Vec<RouteTemplate>,
    regexes: Mutex<HashMap<String, regex::Regex>>,
}

struct RouteTemplate {
    template: String,
    /// `None` for a `{parameter}` segment.
    segments: Vec<Option<String>>,
}

/// The request-body schema for one method on one path template of the spec.
pub struct RequestSchema<'a> {
    pub template: &'a str,
    pub schema: &'a Value,
}

impl ApiSpec {
    /// The spec, parsed once per test binary: the vendored copy, unless `DISCORD_OPENAPI_SPEC`
    /// names another file (e.g. a newer spec to try the fake against).
    pub fn get() -> &'static ApiSpec {
        static SPEC: OnceLock<ApiSpec> = OnceLock::new();
        SPEC.get_or_init(|| {
            let path = std::env::var_os("DISCORD_OPENAPI_SPEC")
                .map(PathBuf::from)
                .unwrap_or_else(|| vendored_dir().join("openapi.json"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!(
                    "fake Discord: cannot read the OpenAPI spec at {} ({e}); \
                     set DISCORD_OPENAPI_SPEC to its path",
                    path.display()
                )
            });
            let doc: Value = serde_json::from_str(&text).expect("openapi.json is not JSON");
            ApiSpec::from_doc(doc)
        })
    }

    fn from_doc(doc: Value) -> ApiSpec {
        let routes = doc["paths"]
            .as_object()
            .expect("spec has no paths")
            .keys()
            .map(|template| RouteTemplate {
                template: template.clone(),
                segments: template
                    .trim_start_matches('/')
                    .split('/')
                    .map(|s| (!s.starts_with('{')).then(|| s.to_string()))
                    .collect(),
            })
            .collect();
        ApiSpec {
            doc,
            routes,
            regexes: Mutex::new(HashMap::new()),
        }
    }

    /// The path template matching `path` (relative to `/api/v10`), preferring the one with
    /// the most literal segments, as `/users/@me/channels` must beat `/users/{user_id}/...`.
    pub fn match_path(&self, path: &str) -> Option<&str> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        self.routes
            .iter()
            .filter(|r| {
                r.segments.len() == parts.len()
                    && r.segments.iter().zip(&parts).all(|(seg, part)| match seg {
                        Some(lit) => lit == part,
                        None => !part.is_empty(),
                    })
            })
            .max_by_key(|r| r.segments.iter().filter(|s| s.is_some()).count())
            .map(|r| r.template.as_str())
    }

    /// The JSON request-body schema of `method` on the template matching `path`, if the spec
    /// declares one. Multipart bodies are checked with the same schema: their `payload_json`
    /// part carries exactly the JSON body.
    pub fn request_schema(&self, method: &str, path: &str) -> Option<RequestSchema<'_>> {
        let template = self.match_path(path)?;
        let schema = self.doc["paths"][template][method.to_ascii_lowercase()]["requestBody"]
            ["content"]["application/json"]
            .get("schema")?;
        Some(RequestSchema { template, schema })
    }

    /// Validates `instance` against `schema`; every error found, not only the first.
    pub fn validate(&self, schema: &Value, instance: &Value) -> Result<(), Vec<SchemaError>> {
        let mut errors = Vec::new();
        self.check(schema, instance, "", &mut errors);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    fn resolve<'a>(&'a self, reference: &str) -> Option<&'a Value> {
        let pointer = reference.strip_prefix('#')?;
        self.doc.pointer(pointer)
    }

    fn check(&self, schema: &Value, value: &Value, at: &str, errors: &mut Vec<SchemaError>) {
        let Some(schema) = schema.as_object() else {
            if schema == &Value::Bool(false) {
                errors.push(err(at, "no value is allowed here"));
            }
            return;
        };
        for (keyword, arg) in schema {
            match keyword.as_str() {
                // Annotations: they describe, they do not constrain.
                "title" | "description" | "contentEncoding" | "x-discord-union" | "default"
                | "deprecated" | "readOnly" | "writeOnly" | "examples" => {}
                "$ref" => match arg.as_str().and_then(|r| self.resolve(r)) {
                    Some(target) => self.check(target, value, at, errors),
                    None => errors.push(err(at, format!("spec has a dangling $ref {arg}"))),
                },
                "type" => {
                    let allowed: Vec<&str> = match arg {
                        Value::String(t) => vec![t.as_str()],
                        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                        _ => vec![],
                    };
                    if !allowed.iter().any(|t| has_type(value, t, schema, at)) {
                        errors.push(err(
                            at,
                            format!(
                                "expected type {}, got {}",
                                allowed.join(" or "),
                                short(value)
                            ),
                        ));
                    }
                }
                "const" => {
                    if !json_eq(arg, value) {
                        errors.push(err(at, format!("expected {arg}, got {}", short(value))));
                    }
                }
                "enum" => {
                    let options = arg.as_array().map(Vec::as_slice).unwrap_or_default();
                    if !options.iter().any(|o| json_eq(o, value)) {
                        errors.push(err(at, format!("{} is not one of {arg}", short(value))));
                    }
                }
                "properties"
                | "required"
                | "additionalProperties"
                | "minProperties"
                | "maxProperties" => {
                    if let Value::Object(map) = value {
                        self.check_object_keyword(keyword, arg, schema, map, at, errors);
                    }
                }
                "items" | "minItems" | "maxItems" | "uniqueItems" => {
                    if let Value::Array(items) = value {
                        self.check_array_keyword(keyword, arg, items, at, errors);
                    }
                }
                "minLength" | "maxLength" | "pattern" => {
                    if let Value::String(s) = value {
                        self.check_string_keyword(keyword, arg, s, at, errors);
                    }
                }
                "minimum" | "maximum" => {
                    if let (Some(n), Some(limit)) = (value.as_f64(), arg.as_f64()) {
                        let bad = if keyword == "minimum" {
                            n < limit
                        } else {
                            n > limit
                        };
                        if bad {
                            errors.push(err(at, format!("{n} is outside {keyword} {limit}")));
                        }
                    }
                }
                "format" => check_format(arg.as_str().unwrap_or(""), value, at, errors),
                "allOf" => {
                    for sub in arg.as_array().map(Vec::as_slice).unwrap_or_default() {
                        self.check(sub, value, at, errors);
                    }
                }
                "anyOf" | "oneOf" => self.check_union(keyword, arg, value, at, errors),
                other => errors.push(err(
                    at,
                    format!("the validator does not implement schema keyword `{other}`"),
                )),
            }
        }
    }

    fn check_object_keyword(
        &self,
        keyword: &str,
        arg: &Value,
        schema: &serde_json::Map<String, Value>,
        map: &serde_json::Map<String, Value>,
        at: &str,
        errors: &mut Vec<SchemaError>,
    ) {
        match keyword {
            "properties" => {
                let props = arg.as_object().cloned().unwrap_or_default();
                for (name, sub) in &props {
                    if let Some(v) = map.get(name) {
                        self.check(sub, v, &format!("{at}/{name}"), errors);
                    }
                }
            }
            "required" => {
                for name in arg.as_array().map(Vec::as_slice).unwrap_or_default() {
                    let name = name.as_str().unwrap_or_default();
                    if !map.contains_key(name) {
                        errors.push(err(at, format!("missing required property `{name}`")));
                    }
                }
            }
            "additionalProperties" => {
                let declared = schema.get("properties").and_then(Value::as_object);
                for (name, v) in map {
                    if declared.is_some_and(|d| d.contains_key(name)) {
                        continue;
                    }
                    if arg == &Value::Bool(false) {
                        errors.push(err(at, format!("property `{name}` is not allowed")));
                    } else {
                        self.check(arg, v, &format!("{at}/{name}"), errors);
                    }
                }
            }
            "minProperties" | "maxProperties" => {
                let limit = arg.as_u64().unwrap_or(0) as usize;
                let bad = if keyword == "minProperties" {
                    map.len() < limit
                } else {
                    map.len() > limit
                };
                if bad {
                    errors.push(err(
                        at,
                        format!("{} properties, {keyword} is {limit}", map.len()),
                    ));
                }
            }
            _ => unreachable!("only object keywords are routed here"),
        }
    }

    fn check_array_keyword(
        &self,
        keyword: &str,
        arg: &Value,
        items: &[Value],
        at: &str,
        errors: &mut Vec<SchemaError>,
    ) {
        match keyword {
            "items" => {
                for (i, item) in items.iter().enumerate() {
                    self.check(arg, item, &format!("{at}/{i}"), errors);
                }
            }
            "minItems" | "maxItems" => {
                let limit = arg.as_u64().unwrap_or(0) as usize;
                let bad = if keyword == "minItems" {
                    items.len() < limit
                } else {
                    items.len() > limit
                };
                if bad {
                    errors.push(err(
                        at,
                        format!("{} items, {keyword} is {limit}", items.len()),
                    ));
                }
            }
            "uniqueItems" => {
                if arg == &Value::Bool(true) {
                    for (i, a) in items.iter().enumerate() {
                        if items[..i].iter().any(|b| json_eq(a, b)) {
                            errors.push(err(at, format!("item {i} repeats an earlier item")));
                        }
                    }
                }
            }
            _ => unreachable!("only array keywords are routed here"),
        }
    }

    fn check_string_keyword(
        &self,
        keyword: &str,
        arg: &Value,
        s: &str,
        at: &str,
        errors: &mut Vec<SchemaError>,
    ) {
        // JSON Schema counts characters (code points), not bytes.
        let len = s.chars().count();
        match keyword {
            "minLength" if len < arg.as_u64().unwrap_or(0) as usize => {
                errors.push(err(
                    at,
                    format!("string of {len} characters, minLength is {arg}"),
                ));
            }
            "maxLength" if len > arg.as_u64().unwrap_or(u64::MAX) as usize => {
                errors.push(err(
                    at,
                    format!("string of {len} characters, maxLength is {arg}"),
                ));
            }
            "pattern" => {
                let pattern = arg.as_str().unwrap_or_default();
                let mut cache = self.regexes.lock().expect("regex cache poisoned");
                let re = cache.entry(pattern.to_string()).or_insert_with(|| {
                    regex::Regex::new(pattern).expect("spec pattern is a valid regex")
                });
                if !re.is_match(s) {
                    errors.push(err(at, format!("{s:?} does not match {pattern}")));
                }
            }
            _ => {}
        }
    }

    /// `anyOf` needs one branch to hold, `oneOf` exactly one. On failure the errors of the
    /// branch that got furthest into the value are reported: that is almost always the
    /// branch the author meant (its discriminator, e.g. `type`, matched).
    fn check_union(
        &self,
        keyword: &str,
        arg: &Value,
        value: &Value,
        at: &str,
        errors: &mut Vec<SchemaError>,
    ) {
        let branches = arg.as_array().map(Vec::as_slice).unwrap_or_default();
        let results: Vec<Vec<SchemaError>> = branches
            .iter()
            .map(|b| {
                let mut e = Vec::new();
                self.check(b, value, at, &mut e);
                e
            })
            .collect();
        let passing = results.iter().filter(|e| e.is_empty()).count();
        if keyword == "oneOf" && passing > 1 {
            errors.push(err(
                at,
                format!("matches {passing} branches of a oneOf, not one"),
            ));
        }
        if passing == 0 {
            let best = results
                .into_iter()
                .max_by_key(|e| e.iter().map(|x| x.at.len()).max().unwrap_or(0))
                .unwrap_or_default();
            errors.push(err(
                at,
                format!("matches no branch of {keyword}; closest branch:"),
            ));
            errors.extend(best);
        }
    }
}

/// `crates/fake-discord/discord-api-spec/`: the spec with its licence and provenance note.
fn vendored_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("discord-api-spec")
}

fn err(at: &str, problem: impl Into<String>) -> SchemaError {
    SchemaError {
        at: at.to_string(),
        problem: problem.into(),
    }
}

/// Request fields holding a permission bit set.
const PERMISSION_FIELDS: [&str; 4] = ["permissions", "default_member_permissions", "allow", "deny"];

fn has_type(value: &Value, ty: &str, schema: &serde_json::Map<String, Value>, at: &str) -> bool {
    match ty {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "number" => value.is_number(),
        // Discord documents permission bit sets as strings of digits ("Permissions are
        // serialized into a string") and accepts them so in requests (serenity and discord.js
        // send `default_member_permissions: "32"`), where the spec says integer.
        "integer" => {
            value.is_i64()
                || value.is_u64()
                || value.as_f64().is_some_and(|f| f.fract() == 0.0)
                || (value.as_str().is_some_and(|s| s.parse::<u64>().is_ok())
                    && PERMISSION_FIELDS.contains(&at.rsplit('/').next().unwrap_or_default()))
        }
        // Discord documents snowflakes as strings but accepts them as JSON integers in request
        // bodies too (serenity sends attachment ids that way), so a snowflake-format string
        // schema also accepts a non-negative integer.
        "string" => {
            value.is_string()
                || (value.is_u64() && schema.get("format") == Some(&Value::from("snowflake")))
        }
        _ => false,
    }
}

fn check_format(format: &str, value: &Value, at: &str, errors: &mut Vec<SchemaError>) {
    match format {
        "int32" => {
            if let Some(n) = value.as_i64() {
                if i32::try_from(n).is_err() {
                    errors.push(err(at, format!("{n} does not fit in int32")));
                }
            } else if value.as_u64().is_some() {
                errors.push(err(at, format!("{value} does not fit in int32")));
            }
        }
        "uri" => {
            if let Some(s) = value.as_str()
                && !s.contains(':')
            {
                errors.push(err(at, format!("{s:?} is not an absolute URI")));
            }
        }
        // Checked by `pattern` (snowflake) or of no consequence to the fake.
        _ => {}
    }
}

/// Equality as JSON Schema defines it: 1 and 1.0 are the same number.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        format!("{}…", text.chars().take(60).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn matches_literal_segments_before_parameters() {
        let spec = ApiSpec::get();
        assert_eq!(
            spec.match_path("/webhooks/1/tok/messages/@original"),
            Some("/webhooks/{webhook_id}/{webhook_token}/messages/@original")
        );
        assert_eq!(
            spec.match_path("/users/@me/channels"),
            Some("/users/@me/channels")
        );
        assert_eq!(spec.match_path("/no/such/route"), None);
    }

    #[test]
    fn reports_the_path_and_problem_of_a_bad_message() {
        let spec = ApiSpec::get();
        let schema = spec
            .request_schema("POST", "/channels/1/messages")
            .unwrap()
            .schema;
        assert!(spec.validate(schema, &json!({"content": "ahoy"})).is_ok());
        let long = "x".repeat(4001); // the spec allows 4000 (the Nitro limit)
        let errors = spec
            .validate(schema, &json!({"content": long, "tts": "yes"}))
            .unwrap_err();
        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert!(
            text.iter()
                .any(|e| e.contains("/content") && e.contains("maxLength")),
            "{text:?}"
        );
        assert!(
            text.iter()
                .any(|e| e.contains("/tts") && e.contains("boolean")),
            "{text:?}"
        );
    }

    #[test]
    fn a_permission_bit_set_may_be_a_string_of_digits() {
        let spec = ApiSpec::get();
        let schema = spec
            .request_schema("PUT", "/applications/1/commands")
            .unwrap()
            .schema;
        let command = |bits: serde_json::Value| json!([{"name": "setup", "description": "d", "default_member_permissions": bits}]);
        assert!(spec.validate(schema, &command(json!("32"))).is_ok());
        assert!(spec.validate(schema, &command(json!(32))).is_ok());
        assert!(spec.validate(schema, &command(json!("lots"))).is_err());
        // Only where a bit set belongs: other integers stay integers.
        let bad = json!([{"name": "setup", "description": "d", "type": "1"}]);
        assert!(spec.validate(schema, &bad).is_err());
    }

    #[test]
    fn a_callback_must_pick_one_union_branch() {
        let spec = ApiSpec::get();
        let schema = spec
            .request_schema("POST", "/interactions/1/tok/callback")
            .unwrap()
            .schema;
        assert!(
            spec.validate(schema, &json!({"type": 4, "data": {"content": "hi"}}))
                .is_ok()
        );
        assert!(spec.validate(schema, &json!({"type": 99})).is_err());
    }
}
