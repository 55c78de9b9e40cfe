//! The machinery behind the key table in `keys.rs`: the [`Value`] trait (how
//! a TOML value becomes a field, and back) and the `config_keys!` macro that
//! turns the table into the `Config` struct, its defaults, the key list, the
//! lookup by key, the per-key checks and the documentation of each key.

/// A type a configuration key can hold.
pub trait Value: Sized {
    /// What a value of this type looks like, in words, for error messages
    /// ("a whole number").
    const WANT: &'static str;
    /// The field value for `v`, or `None` when `v` has another type.
    fn from_toml(v: &toml::Value) -> Option<Self>;
    /// The value as TOML source text; `None` when unset.
    fn to_toml(&self) -> Option<String>;
}

impl Value for String {
    const WANT: &'static str = "a string in quotes";
    fn from_toml(v: &toml::Value) -> Option<Self> {
        v.as_str().map(str::to_string)
    }
    fn to_toml(&self) -> Option<String> {
        Some(toml::Value::String(self.clone()).to_string())
    }
}

impl Value for Option<String> {
    const WANT: &'static str = String::WANT;
    fn from_toml(v: &toml::Value) -> Option<Self> {
        String::from_toml(v).map(Some)
    }
    fn to_toml(&self) -> Option<String> {
        self.as_ref().and_then(String::to_toml)
    }
}

impl Value for usize {
    const WANT: &'static str = "a whole number (0 or more)";
    fn from_toml(v: &toml::Value) -> Option<Self> {
        v.as_integer().and_then(|i| usize::try_from(i).ok())
    }
    fn to_toml(&self) -> Option<String> {
        Some(self.to_string())
    }
}

impl Value for u64 {
    const WANT: &'static str = "a whole number (0 or more)";
    fn from_toml(v: &toml::Value) -> Option<Self> {
        v.as_integer().and_then(|i| u64::try_from(i).ok())
    }
    fn to_toml(&self) -> Option<String> {
        Some(self.to_string())
    }
}

impl Value for u32 {
    const WANT: &'static str = "a whole number (0 or more)";
    fn from_toml(v: &toml::Value) -> Option<Self> {
        v.as_integer().and_then(|i| u32::try_from(i).ok())
    }
    fn to_toml(&self) -> Option<String> {
        Some(self.to_string())
    }
}

impl Value for bool {
    const WANT: &'static str = "true or false";
    fn from_toml(v: &toml::Value) -> Option<Self> {
        v.as_bool()
    }
    fn to_toml(&self) -> Option<String> {
        Some(self.to_string())
    }
}

impl Value for f64 {
    const WANT: &'static str = "a number";
    fn from_toml(v: &toml::Value) -> Option<Self> {
        match v {
            toml::Value::Float(f) => Some(*f),
            // Exact for every integer a person would write here.
            #[allow(clippy::cast_precision_loss)]
            toml::Value::Integer(i) => Some(*i as f64),
            _ => None,
        }
    }
    fn to_toml(&self) -> Option<String> {
        Some(self.to_string())
    }
}

impl Value for Vec<String> {
    const WANT: &'static str = "a list of strings, like [\"a\", \"b\"]";
    fn from_toml(v: &toml::Value) -> Option<Self> {
        v.as_array()?
            .iter()
            .map(|x| x.as_str().map(str::to_string))
            .collect()
    }
    fn to_toml(&self) -> Option<String> {
        Some(
            toml::Value::Array(self.iter().cloned().map(toml::Value::String).collect()).to_string(),
        )
    }
}

/// `projects`: project slug → folders outside the vault, written as
/// `[projects.<p>]` tables with `paths = [...]` (slugs lower-cased).
impl Value for std::collections::BTreeMap<String, Vec<String>> {
    const WANT: &'static str = "tables like [projects.wrap-cli] with paths = [\"~/src/wrap-cli\"]";
    fn from_toml(v: &toml::Value) -> Option<Self> {
        v.as_table()?
            .iter()
            .map(|(p, t)| {
                let t = t.as_table()?;
                if t.keys().any(|k| k != "paths") {
                    return None;
                }
                let paths = match t.get("paths") {
                    Some(list) => Vec::<String>::from_toml(list)?,
                    None => Vec::new(),
                };
                Some((p.to_ascii_lowercase(), paths))
            })
            .collect()
    }
    fn to_toml(&self) -> Option<String> {
        let parts: Vec<String> = self
            .iter()
            .map(|(p, dirs)| {
                format!(
                    "{} = {{ paths = {} }}",
                    toml::Value::String(p.clone()),
                    dirs.to_toml().unwrap_or_default()
                )
            })
            .collect();
        Some(if parts.is_empty() {
            "{}".into()
        } else {
            format!("{{ {} }}", parts.join(", "))
        })
    }
}

/// One extra source of `sources.extra`: a file or folder of the vault read
/// as `kind`, its items given `project` when nothing else names one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ExtraSource {
    /// Root-relative file or folder.
    pub path: String,
    /// `journal`, `session-log`, `handoff` (folders of dated notes, read as
    /// journals), `todo` or `progress` (files read like a project's todos.md
    /// and PROGRESS.md).
    pub kind: String,
    /// The project of its items (a slug), when given.
    pub project: Option<String>,
}

impl ExtraSource {
    /// The kinds `kind` may name.
    pub const KINDS: &'static [&'static str] =
        &["journal", "session-log", "handoff", "todo", "progress"];

    /// Whether this source is a folder of dated notes read as journals.
    pub fn is_dated(&self) -> bool {
        matches!(self.kind.as_str(), "journal" | "session-log" | "handoff")
    }
}

/// `sources.extra`: a list of tables `{ path, kind, project }`.
impl Value for Vec<ExtraSource> {
    const WANT: &'static str = "a list of tables like { path = \"docs/sessions\", kind = \"session-log\", project = \"my-app\" } (kind: journal, session-log, handoff, todo or progress; project optional, a slug)";
    fn from_toml(v: &toml::Value) -> Option<Self> {
        v.as_array()?
            .iter()
            .map(|t| {
                let t = t.as_table()?;
                if t.keys()
                    .any(|k| !matches!(k.as_str(), "path" | "kind" | "project"))
                {
                    return None;
                }
                let path = t.get("path")?.as_str()?.to_string();
                let kind = t.get("kind")?.as_str()?.to_string();
                if !ExtraSource::KINDS.contains(&kind.as_str()) {
                    return None;
                }
                let project = match t.get("project") {
                    Some(p) => {
                        let p = p.as_str()?;
                        if !crate::config::is_slug(p) {
                            return None;
                        }
                        Some(p.to_ascii_lowercase())
                    }
                    None => None,
                };
                Some(ExtraSource {
                    path,
                    kind,
                    project,
                })
            })
            .collect()
    }
    fn to_toml(&self) -> Option<String> {
        let parts: Vec<String> = self
            .iter()
            .map(|e| {
                let mut s = format!(
                    "{{ path = {}, kind = {}",
                    toml::Value::String(e.path.clone()),
                    toml::Value::String(e.kind.clone())
                );
                if let Some(p) = &e.project {
                    s.push_str(&format!(", project = {}", toml::Value::String(p.clone())));
                }
                s.push_str(" }");
                s
            })
            .collect();
        Some(format!("[{}]", parts.join(", ")))
    }
}

/// The documentation of one key, for the `init` template.
pub struct KeyDoc {
    pub key: &'static str,
    /// The `///` lines of the declaration, joined with newlines.
    pub doc: &'static str,
    /// Shown in the template for a key without a default.
    pub example: Option<&'static str>,
}

/// Declares every configuration key once. Each entry:
///
/// ```text
/// /// Documentation (becomes the comment above the key in the init template).
/// "dotted.key" => field: Type = default, check validator [, example "toml"];
/// ```
///
/// `validator` is a `fn(&Type) -> Result<(), &'static str>` run on the final
/// value after layering; its message completes "key `k`: …".
macro_rules! config_keys {
    ($(
        $(#[doc = $doc:literal])+
        $key:literal => $field:ident : $ty:ty = $default:expr, check $check:path $(, example $ex:literal)? ;
    )*) => {
        /// The effective configuration of a run. Paths are relative to the
        /// vault root. Generated from the key table in `config/keys.rs`.
        #[derive(Debug, Clone, PartialEq, serde::Serialize)]
        pub struct Config {
            $( $(#[doc = $doc])+ pub $field: $ty, )*
            /// `(dotted key, origin)` for every key, in documentation order.
            #[serde(skip)]
            pub origins: Vec<(&'static str, $crate::config::Origin)>,
            /// Problems that did not stop the run (an unreadable user file).
            #[serde(skip)]
            pub warnings: Vec<String>,
            /// Today's date when given (`--today`, `ACTIVE_STATUS_TODAY`);
            /// the local date otherwise. Not a configuration key.
            #[serde(skip)]
            pub today: Option<jiff::civil::Date>,
        }

        impl Default for Config {
            fn default() -> Self {
                Config {
                    $( $field: $default, )*
                    origins: KEYS.iter().map(|k| (*k, $crate::config::Origin::Default)).collect(),
                    warnings: Vec::new(),
                    today: None,
                }
            }
        }

        /// Every configuration key, in the order `config` prints them.
        pub const KEYS: &[&str] = &[ $( $key ),* ];

        /// The documentation of every key, in the same order.
        pub const KEY_DOCS: &[$crate::config::declare::KeyDoc] = &[ $(
            $crate::config::declare::KeyDoc {
                key: $key,
                doc: concat!($( $doc, "\n" ),+),
                example: config_keys!(@opt $($ex)?),
            },
        )* ];

        impl Config {
            /// Sets `key` from a TOML value. `Err(None)`: no such key;
            /// `Err(Some(want))`: the value has the wrong type.
            pub(crate) fn set(
                &mut self,
                key: &str,
                value: &toml::Value,
            ) -> Result<&'static str, Option<&'static str>> {
                use $crate::config::declare::Value as _;
                match key {
                    $( $key => {
                        self.$field = <$ty>::from_toml(value).ok_or(Some(<$ty>::WANT))?;
                        Ok($key)
                    } )*
                    _ => Err(None),
                }
            }

            /// The value of a key as TOML (`None` for an unset optional key
            /// or an unknown key).
            pub fn toml_of(&self, key: &str) -> Option<String> {
                use $crate::config::declare::Value as _;
                match key {
                    $( $key => self.$field.to_toml(), )*
                    _ => None,
                }
            }

            /// Runs every key's check; the first failure names the key.
            pub(crate) fn check_values(&self) -> Result<(), (&'static str, &'static str)> {
                $( $check(&self.$field).map_err(|why| ($key, why))?; )*
                Ok(())
            }
        }
    };
    (@opt $ex:literal) => { Some($ex) };
    (@opt) => { None };
}
