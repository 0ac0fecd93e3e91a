//! A file's bytes, read the safe way: regular files only, and never more than the core
//! measures.
//!
//! The file is opened without blocking (a named pipe with no writer opens at once instead
//! of waiting for one) and without becoming a controlling terminal, then the opened file is
//! checked (`fstat`, so the check and the read see the same file): anything but a regular
//! file (a pipe, a device such as `/dev/zero`, a socket, a folder) is refused unread. At
//! most the size limit + 1 bytes are read, so a file that grows while it is read costs no
//! more than that.

use crate::record::{ErrorKind, FileError};
use std::fs::{File, Metadata, OpenOptions};
use std::io::Read;
use std::path::Path;

/// The default size limit: 10 MiB, the limit of Python's discovery
/// (`slopmark.code.measure.discovery.MAX_FILE_BYTES`, which a test holds equal to this one).
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// The bytes of the regular file at `path` of at most `limit` bytes, or why they are not
/// read.
pub fn regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open(path).map_err(|error| unreadable(error.to_string()))?;
    let found = file
        .metadata()
        .map_err(|error| unreadable(error.to_string()))?;
    if !found.is_file() {
        return Err(unreadable(format!("not a regular file ({})", what(&found))));
    }
    if found.len() > limit {
        return Err(too_big(found.len(), limit));
    }
    // one byte more than the limit, to see a file that grew past it meanwhile
    let wanted = found.len().saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(wanted).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| unreadable(error.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

/// What a file that is not a regular file is, in a few words.
#[cfg(unix)]
fn what(found: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = found.file_type();
    if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn what(found: &Metadata) -> &'static str {
    if found.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

fn unreadable(message: String) -> FileError {
    FileError {
        kind: ErrorKind::Unreadable,
        message,
        line: 0,
        column: 0,
    }
}

fn too_big(size: u64, limit: u64) -> FileError {
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    FileError {
        kind: ErrorKind::TooBig,
        message: format!(
            "{:.1} MiB is over the {:.0} MiB limit (generated?)",
            mib(size),
            mib(limit)
        ),
        line: 0,
        column: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A path named `name` in a folder of its own, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str) -> Self {
            let folder =
                std::env::temp_dir().join(format!("slopmark-read-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&folder).expect("a scratch folder");
            Self(folder.join(name))
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            if let Some(folder) = self.0.parent() {
                let _ = std::fs::remove_dir_all(folder);
            }
        }
    }

    /// Why the file at `path` is refused, asked on a thread of its own: a read that blocks
    /// fails the test after a few seconds instead of hanging it.
    fn refused(path: &Path) -> FileError {
        let (sender, answer) = std::sync::mpsc::channel();
        let path = path.to_owned();
        std::thread::spawn(move || sender.send(regular_file(&path, MAX_FILE_BYTES)));
        answer
            .recv_timeout(Duration::from_secs(10))
            .expect("answered within seconds")
            .expect_err("refused")
    }

    #[test]
    fn a_regular_file_is_read_whole() {
        let scratch = Scratch::new("small.py");
        let path = &scratch.0;
        std::fs::write(path, b"x = 1\n").expect("written");
        assert_eq!(
            regular_file(path, MAX_FILE_BYTES).expect("read"),
            b"x = 1\n"
        );
    }

    #[test]
    #[allow(unsafe_code, reason = "makes a named pipe")]
    fn a_named_pipe_without_a_writer_is_refused_at_once() {
        let scratch = Scratch::new("pipe.py");
        let path = &scratch.0;
        let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("a path");
        // SAFETY: mkfifo reads a NUL-terminated path and creates the pipe.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let error = refused(path);
        assert_eq!(error.kind, ErrorKind::Unreadable);
        assert_eq!(error.message, "not a regular file (a named pipe)");
    }

    #[test]
    fn a_device_that_never_ends_is_refused_unread() {
        let error = refused(Path::new("/dev/zero"));
        assert_eq!(error.message, "not a regular file (a character device)");
        let folder = refused(&std::env::temp_dir());
        assert_eq!(folder.message, "not a regular file (a folder)");
    }

    #[test]
    fn a_file_over_the_limit_is_refused() {
        let scratch = Scratch::new("big.js");
        let path = &scratch.0;
        let file = File::create(path).expect("created");
        file.set_len(MAX_FILE_BYTES + 1).expect("sized");
        let error = refused(path);
        assert_eq!(error.kind, ErrorKind::TooBig);
        assert_eq!(
            error.message,
            "10.0 MiB is over the 10 MiB limit (generated?)"
        );
        file.set_len(MAX_FILE_BYTES).expect("sized");
        let read = regular_file(path, MAX_FILE_BYTES).expect("read");
        assert_eq!(read.len() as u64, MAX_FILE_BYTES);
    }
}
