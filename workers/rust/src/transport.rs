//! The protocol channel: the two inherited file descriptors named by
//! `VERSUS_WORKER_FDS` ("R,W", today always "3,4").
//!
//! Standard output and standard error belong to the code under test, so the
//! library never touches them for the protocol.

use std::fs::File;

/// The variable through which versus names the request and response fds.
pub(crate) const FDS_VARIABLE: &str = "VERSUS_WORKER_FDS";

/// Why the protocol channel could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ChannelError {
    /// `VERSUS_WORKER_FDS` is not set: the program was not started by versus.
    NotStarted,
    /// It is set, but does not name two open descriptors.
    Invalid(String),
}

/// Opens the request (read) and response (write) channel named by
/// `VERSUS_WORKER_FDS`.
pub(crate) fn channel_from_env() -> Result<(File, File), ChannelError> {
    let spec = std::env::var(FDS_VARIABLE).map_err(|_| ChannelError::NotStarted)?;
    let (read_fd, write_fd) = parse_fds(&spec).map_err(ChannelError::Invalid)?;
    open_channel(read_fd, write_fd).map_err(ChannelError::Invalid)
}

/// Parses "R,W" into two descriptor numbers, each at least 3 (0 to 2 are
/// the standard streams, which are never the protocol channel).
pub(crate) fn parse_fds(spec: &str) -> Result<(i32, i32), String> {
    let parse = |text: &str| -> Result<i32, String> {
        match text.trim().parse::<i32>() {
            Ok(fd) if fd >= 3 => Ok(fd),
            _ => Err(format!(
                "{FDS_VARIABLE}={spec:?}: expected two file descriptors of at least 3, like \"3,4\""
            )),
        }
    };
    let (read, write) = spec
        .split_once(',')
        .ok_or_else(|| format!("{FDS_VARIABLE}={spec:?}: expected \"R,W\", like \"3,4\""))?;
    Ok((parse(read)?, parse(write)?))
}

#[cfg(unix)]
fn open_channel(read_fd: i32, write_fd: i32) -> Result<(File, File), String> {
    let requests = adopt(read_fd)?;
    let responses = if write_fd == read_fd {
        requests
            .try_clone()
            .map_err(|error| format!("cannot duplicate fd {write_fd}: {error}"))?
    } else {
        adopt(write_fd)?
    };
    Ok((requests, responses))
}

#[cfg(not(unix))]
fn open_channel(_read_fd: i32, _write_fd: i32) -> Result<(File, File), String> {
    Err("versus workers inherit their protocol channel as file descriptors, which needs a Unix system".to_owned())
}

/// Takes ownership of an inherited descriptor. The descriptor is moved to a
/// close-on-exec duplicate, so processes that the code under test starts do
/// not inherit the protocol channel (a child holding the response pipe open
/// would hide this worker's exit from versus).
#[cfg(unix)]
fn adopt(fd: i32) -> Result<File, String> {
    use std::os::fd::FromRawFd;
    use std::path::Path;

    // Where the system lists open descriptors, check that this one is open
    // before claiming it, so a wrong number is a message rather than
    // undefined behaviour.
    let listing = Path::new("/dev/fd");
    if listing.is_dir() && std::fs::symlink_metadata(listing.join(fd.to_string())).is_err() {
        return Err(format!("fd {fd} from {FDS_VARIABLE} is not open"));
    }
    // SAFETY: versus passes this descriptor to the worker for its exclusive
    // use (that is the meaning of VERSUS_WORKER_FDS), it is open (checked
    // above where the system allows), and this is the only place that
    // claims it.
    let inherited = unsafe { File::from_raw_fd(fd) };
    // `try_clone` duplicates with close-on-exec set; dropping `inherited`
    // then closes the original, inheritable descriptor.
    inherited
        .try_clone()
        .map_err(|error| format!("cannot duplicate fd {fd}: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_two_descriptors() {
        assert_eq!(parse_fds("3,4"), Ok((3, 4)));
        assert_eq!(parse_fds(" 5 , 9 "), Ok((5, 9)));
        for bad in ["", "3", "3;4", "a,b", "3,", "0,1", "3,2", "-3,4"] {
            assert!(parse_fds(bad).is_err(), "accepted {bad:?}");
        }
    }
}
