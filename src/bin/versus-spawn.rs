//! versus's spawn helper and orphan guard as a binary of their own (see
//! `versus::exec::helper` and `versus::exec::guard`): only what starting and
//! measuring a run needs is linked in, so its memory, the floor under the
//! children it measures, stays as small as it can be.

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() == Some(versus::exec::guard::ARG) {
        versus::exec::guard::serve(&args.next().unwrap_or_default());
        return std::process::ExitCode::SUCCESS;
    }
    match versus::exec::helper::serve() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("versus-spawn: {e:#}");
            std::process::ExitCode::from(1)
        }
    }
}
