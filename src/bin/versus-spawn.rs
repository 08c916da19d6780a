//! versus's spawn helper as a binary of its own (see `versus::exec::helper`):
//! only what starting and measuring a run needs is linked in, so its memory,
//! the floor under the children it measures, stays as small as it can be.

fn main() -> std::process::ExitCode {
    match versus::exec::helper::serve() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("versus-spawn: {e:#}");
            std::process::ExitCode::from(1)
        }
    }
}
