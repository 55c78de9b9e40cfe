//! Errors and the exit codes they map to (docs/FORMAT.md §7).

use std::path::PathBuf;

/// Exit codes, as fixed by docs/FORMAT.md §7.
pub mod exit {
    pub const OK: i32 = 0;
    pub const STALE: i32 = 1;
    pub const USAGE: i32 = 2;
    pub const DATA: i32 = 65;
    pub const NO_VAULT: i32 = 66;
    pub const CANT_WRITE: i32 = 73;
    pub const CANT_READ: i32 = 74;
    pub const LOCKED: i32 = 75;
}

/// Everything that can make a run fail. Each variant maps to one exit code.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Usage(String),
    #[error("{path}: {message}")]
    Config { path: String, message: String },
    #[error("{0}")]
    Data(String),
    #[error(
        "no vault found from {start}: none of its ancestors holds `.agents/` or `journal/`\n\
         hint: pass `--root DIR`, set ACTIVE_STATUS_ROOT, or run `active-status init` inside your vault"
    )]
    NoVault { start: PathBuf },
    #[error(
        "vault root {0} does not exist or is not a folder\n\
         hint: pass `--root DIR` (or ACTIVE_STATUS_ROOT) naming your vault's top folder"
    )]
    NoVaultAt(PathBuf),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Locked(String),
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => exit::USAGE,
            Error::Config { .. } | Error::Data(_) => exit::DATA,
            Error::NoVault { .. } | Error::NoVaultAt(_) => exit::NO_VAULT,
            Error::Write { .. } => exit::CANT_WRITE,
            Error::Read { .. } => exit::CANT_READ,
            Error::Locked(_) => exit::LOCKED,
        }
    }

    pub fn read(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Read {
            path: path.into(),
            source,
        }
    }

    pub fn write(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Write {
            path: path.into(),
            source,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
