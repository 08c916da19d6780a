//! versus worker: the `bip32` crate (k256 backend), compiled natively. The
//! operations are the shared ones of bip32-bench-core; setup (not timed)
//! reads the inputs file (the suite's payload, data/inputs.txt).

use bip32_bench_core as ops;
use versus_worker::{Error, Setup, Worker};

fn inputs(setup: &Setup) -> Result<ops::Inputs, Error> {
    let text = String::from_utf8(setup.read_input()?)?;
    Ok(ops::Inputs::parse(&text)?)
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--version") {
        // The crate versions are pinned (=) in core/Cargo.toml.
        println!("bip32 0.6.0 + k256 0.14.0, native, {}", env!("BIP32_WORKER_RUSTC"));
        return;
    }
    Worker::new()
        .operation("from_xprv", inputs, |i: &mut ops::Inputs| Ok(ops::from_xprv(&i.xprv)?))
        .operation("from_xpub", inputs, |i: &mut ops::Inputs| Ok(ops::from_xpub(&i.xpub)?))
        .operation("from_seed", inputs, |i: &mut ops::Inputs| Ok(ops::from_seed(&i.seed)?))
        .operation("derive_path_xprv", inputs, |i: &mut ops::Inputs| {
            Ok(ops::derive_path_xprv(&i.xprv, &i.path_xprv)?)
        })
        .operation("derive_path_xpub", inputs, |i: &mut ops::Inputs| {
            Ok(ops::derive_path_xpub(&i.xpub, &i.path_xpub)?)
        })
        .operation("neutered", inputs, |i: &mut ops::Inputs| Ok(ops::neutered(&i.xprv)?))
        .operation("derive0", inputs, |i: &mut ops::Inputs| Ok(ops::derive0(&i.xpub)?))
        .operation(
            "vectors",
            |setup| Ok(String::from_utf8(setup.read_input()?)?),
            |text: &mut String| Ok(ops::vectors(text)?),
        )
        .run()
}
