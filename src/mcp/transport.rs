//! The server's stdio transport: one JSON-RPC message per line. Each line
//! is read with a cap ([`MAX_REQUEST_BYTES`]): a longer one is never
//! buffered whole; it is answered with a "request too large" error (with
//! its id, when its first bytes show one) and the server reads on. A line
//! that is JSON but not a message is answered "invalid request" when it
//! carries an id (a request), and skipped otherwise; a line that is not
//! JSON is skipped (answering it could start an error storm with a peer
//! that echoes), as the SDK's own transport does.

use rmcp::RoleServer;
use rmcp::model::{ErrorData, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};
use std::borrow::Cow;
use std::io::BufRead;
use std::sync::Arc;
use tokio::io::AsyncWriteExt;
use tokio::sync::{Mutex, mpsc};

/// The largest request line read (4 MiB); a longer one is refused.
pub(crate) const MAX_REQUEST_BYTES: usize = 4 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A whole line, without its `\n`, of at most the cap.
    Whole(Vec<u8>),
    /// A line over the cap, skipped: its id when its first bytes show one,
    /// and its length.
    TooLarge { id: Option<RequestId>, bytes: u64 },
}

/// Reads the next line of `input`, buffering at most `cap` bytes of it;
/// `None` at the end of the input.
pub(crate) fn next_line(input: &mut impl BufRead, cap: usize) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    // The line's length once it is over the cap (its head is kept in `line`).
    let mut over: Option<u64> = None;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match over {
                Some(bytes) => Some(too_large(&line, bytes)),
                None if line.is_empty() => None,
                None => Some(Line::Whole(line)),
            });
        }
        let newline = memchr::memchr(b'\n', chunk);
        let take = newline.unwrap_or(chunk.len());
        match over.as_mut() {
            Some(bytes) => *bytes += take as u64,
            None if line.len() + take > cap => {
                over = Some((line.len() + take) as u64);
                let room = cap.saturating_sub(line.len());
                line.extend_from_slice(&chunk[..room]);
            }
            None => line.extend_from_slice(&chunk[..take]),
        }
        input.consume(newline.map_or(take, |at| at + 1));
        if newline.is_some() {
            return Ok(Some(match over {
                Some(bytes) => too_large(&line, bytes),
                None => Line::Whole(line),
            }));
        }
    }
}

fn too_large(head: &[u8], bytes: u64) -> Line {
    Line::TooLarge {
        id: id_in(head),
        bytes,
    }
}

/// The top-level `id` of a JSON object, read from `text` as far as it goes
/// (a line cut at the cap is read up to the cut; what follows is unknown).
fn id_in(text: &[u8]) -> Option<RequestId> {
    struct Seek<'a>(&'a mut Option<RequestId>);
    impl<'de> Visitor<'de> for Seek<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON-RPC message")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                if key == "id" {
                    let value: serde_json::Value = map.next_value()?;
                    *self.0 = serde_json::from_value(value).ok();
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(())
        }
    }
    let text = text.strip_prefix(BOM).unwrap_or(text);
    let mut id = None;
    let _ = serde_json::Deserializer::from_slice(text).deserialize_map(Seek(&mut id));
    id
}

/// UTF-8 byte order mark (RFC 8259 §8.1 lets a reader ignore one).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What the server does with one line.
#[derive(Debug)]
pub(crate) enum Decoded {
    /// A message for the service.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Nothing: a blank line, a line that is not JSON, a notification or
    /// response that is not a message the server knows.
    Skip,
    /// An error answered here, never passed on.
    Answer(Box<TxJsonRpcMessage<RoleServer>>),
}

/// Decodes one line.
pub(crate) fn decode(line: Line) -> Decoded {
    let bytes = match line {
        Line::TooLarge { id, bytes } => {
            let error = ErrorData::invalid_request(
                format!(
                    "request too large: {bytes} bytes; the limit is {MAX_REQUEST_BYTES} bytes \
                     ({} MiB), nothing of it was read",
                    MAX_REQUEST_BYTES >> 20
                ),
                Some(serde_json::json!({"size": bytes, "limit": MAX_REQUEST_BYTES})),
            );
            return Decoded::Answer(Box::new(TxJsonRpcMessage::<RoleServer>::error(error, id)));
        }
        Line::Whole(bytes) => bytes,
    };
    let text = bytes.strip_prefix(BOM).unwrap_or(&bytes);
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    if text.iter().all(u8::is_ascii_whitespace) {
        return Decoded::Skip;
    }
    match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(text) {
        Ok(message) => Decoded::Message(Box::new(message)),
        Err(e) if e.is_syntax() || e.is_eof() => Decoded::Skip,
        Err(e) => {
            let value: serde_json::Value = serde_json::from_slice(text).unwrap_or_default();
            let is_request = value.get("method").is_some();
            match (is_request, id_in(text)) {
                (true, Some(id)) => {
                    Decoded::Answer(Box::new(TxJsonRpcMessage::<RoleServer>::error(
                        ErrorData::invalid_request(format!("invalid request: {e}"), None),
                        Some(id),
                    )))
                }
                _ => Decoded::Skip,
            }
        }
    }
}

/// The transport on this process's stdin and stdout: a thread reads the
/// lines (blocking reads, bounded), the runtime writes the answers.
pub(crate) struct Stdio {
    lines: mpsc::Receiver<Line>,
    out: Arc<Mutex<Option<tokio::io::Stdout>>>,
}

impl Stdio {
    pub(crate) fn start() -> Stdio {
        let (tx, lines) = mpsc::channel(8);
        std::thread::spawn(move || {
            let mut input = std::io::stdin().lock();
            while let Ok(Some(line)) = next_line(&mut input, MAX_REQUEST_BYTES) {
                if tx.blocking_send(line).is_err() {
                    break;
                }
            }
        });
        Stdio {
            lines,
            out: Arc::new(Mutex::new(Some(tokio::io::stdout()))),
        }
    }
}

async fn write(
    out: &Mutex<Option<tokio::io::Stdout>>,
    message: &TxJsonRpcMessage<RoleServer>,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    let mut out = out.lock().await;
    let out = out
        .as_mut()
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotConnected))?;
    out.write_all(&bytes).await?;
    out.flush().await
}

impl rmcp::transport::Transport<RoleServer> for Stdio {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        async move { write(&out, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match decode(self.lines.recv().await?) {
                Decoded::Message(message) => return Some(*message),
                Decoded::Skip => {}
                Decoded::Answer(answer) => write(&self.out, &answer).await.ok()?,
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.out.lock().await.take();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Line> {
        let mut r = std::io::BufReader::with_capacity(3, input);
        std::iter::from_fn(|| next_line(&mut r, cap).unwrap()).collect()
    }

    #[test]
    fn lines_over_the_cap_are_counted_not_kept() {
        let got = lines(
            b"{\"id\":7,\"x\":\"aaaaaaaaaa\"}\nok\n{\"id\":\"s\"\n\nend",
            12,
        );
        assert_eq!(
            got,
            vec![
                Line::TooLarge {
                    id: Some(RequestId::Number(7)),
                    bytes: 25
                },
                Line::Whole(b"ok".to_vec()),
                Line::Whole(b"{\"id\":\"s\"".to_vec()),
                Line::Whole(Vec::new()),
                Line::Whole(b"end".to_vec()),
            ]
        );
        // The id after the cut is unknown.
        assert_eq!(
            lines(b"{\"x\":\"aaaaaaaaaaaa\",\"id\":1}", 8),
            vec![Line::TooLarge {
                id: None,
                bytes: 27
            }]
        );
    }

    #[test]
    fn a_request_that_is_not_a_message_is_answered_with_its_id() {
        let Decoded::Answer(a) = decode(Line::Whole(
            br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":7}"#.to_vec(),
        )) else {
            panic!("answered")
        };
        let v = serde_json::to_value(&*a).unwrap();
        assert_eq!(v["id"], 3, "{v}");
        assert_eq!(v["error"]["code"], -32600, "{v}");
        assert!(matches!(
            decode(Line::Whole(b"{nope".to_vec())),
            Decoded::Skip
        ));
        assert!(matches!(
            decode(Line::Whole(
                br#"{"jsonrpc":"2.0","method":"x/y","params":7}"#.to_vec()
            )),
            Decoded::Skip | Decoded::Message(_)
        ));
    }
}
