//! Pretty-printed JSON transcripts: an array of records, or records written
//! over several lines each. Each record is re-serialised on one line and
//! reported with the file line where it starts.

use serde_json::Value;

/// The records of `text` as `(1-based line, compact JSON)`, or `None` when the
/// text does not start with a JSON value. A broken tail ends the list and
/// counts as one skipped record (the `bool`).
pub(super) fn records(text: &str) -> Option<(Vec<(usize, String)>, bool)> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let mut out = Vec::new();
    let (mut line, mut counted) = (1, 0);
    let mut broken = false;
    loop {
        let at = stream.byte_offset();
        let start = at + text[at..].len() - text[at..].trim_start().len();
        match stream.next() {
            None => break,
            Some(Ok(v)) => {
                line += text[counted..start].matches('\n').count();
                counted = start;
                match v {
                    Value::Array(items) => {
                        out.extend(items.into_iter().map(|i| (line, i.to_string())))
                    }
                    v => out.push((line, v.to_string())),
                }
            }
            Some(Err(_)) => {
                broken = true;
                break;
            }
        }
    }
    (!out.is_empty()).then_some((out, broken))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_and_multiline_objects() {
        let (r, broken) = records("{\n  \"a\": 1\n}\n{\n \"b\": [2]\n}\n").expect("records");
        assert_eq!(r, [(1, r#"{"a":1}"#.into()), (4, r#"{"b":[2]}"#.into())]);
        assert!(!broken);
        let (r, _) = records("[{\"a\":1},\n {\"b\":2}]").expect("records");
        assert_eq!(r.len(), 2);
        let (r, broken) = records("{\"a\":1}\n{oops").expect("records");
        assert_eq!((r.len(), broken), (1, true));
        assert!(records("# not json").is_none());
    }
}
