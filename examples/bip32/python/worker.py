"""versus worker for examples/bip32: PyPI bip32 (pure Python BIP32 over
coincurve, the CFFI binding of libsecp256k1).

Every operation is the seed report's operation followed by reading the
resulting key's compressed public key, which it returns (33 bytes). Setup (not
timed) reads the inputs file (the suite's payload, data/inputs.txt).

    python worker.py             serve versus (started by versus)
    python worker.py --version   print the versions, one line

The library's API is path oriented; the mapping to the seed's operations:
  fromBase58(xprv)        BIP32.from_xpriv(xprv).pubkey
  fromBase58(xpub)        BIP32.from_xpub(xpub).pubkey
  fromSeed(seed)          BIP32.from_seed(seed).pubkey
  derivePath (xprv)       BIP32.from_xpriv(xprv).get_pubkey_from_path(path)
  derivePath (xpub)       BIP32.from_xpub(xpub).get_pubkey_from_path(path)
  neutered()              BIP32(chaincode, pubkey=..., ...) of the xprv's fields
                          (the library has no neutered(); this is what its
                          from_xpub builds)
  derive(0)               BIP32.from_xpub(xpub).get_pubkey_from_path([0])
(the constructor computes the public key eagerly, like the Rust crate).
"""

import sys
from importlib.metadata import version

import versus_worker
from bip32 import BIP32


def load(params, payload_path, input_path):
    inputs = {"vectors": []}
    with open(input_path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "vector":
                inputs["vectors"].append((bytes.fromhex(value), []))
            elif key == "chain":
                inputs["vectors"][-1][1].append(value)
            else:
                inputs[key] = value
    inputs["seed"] = bytes.fromhex(inputs["seed"])
    # The library's paths start with "m"; path-xpub is relative to the xpub.
    inputs["path-xpub"] = "m/" + inputs["path-xpub"]
    return inputs


@versus_worker.operation(setup=load)
def from_xprv(i):
    return BIP32.from_xpriv(i["xprv"]).pubkey


@versus_worker.operation(setup=load)
def from_xpub(i):
    return BIP32.from_xpub(i["xpub"]).pubkey


@versus_worker.operation(setup=load)
def from_seed(i):
    return BIP32.from_seed(i["seed"]).pubkey


@versus_worker.operation(setup=load)
def derive_path_xprv(i):
    return BIP32.from_xpriv(i["xprv"]).get_pubkey_from_path(i["path-xprv"])


@versus_worker.operation(setup=load)
def derive_path_xpub(i):
    return BIP32.from_xpub(i["xpub"]).get_pubkey_from_path(i["path-xpub"])


@versus_worker.operation(setup=load)
def neutered(i):
    k = BIP32.from_xpriv(i["xprv"])
    public = BIP32(k.chaincode, None, k.pubkey, k.parent_fingerprint, k.depth, k.index, k.network)
    return public.pubkey


@versus_worker.operation(setup=load)
def derive0(i):
    return BIP32.from_xpub(i["xpub"]).get_pubkey_from_path([0])


@versus_worker.operation(setup=load)
def vectors(i):
    out = []
    for seed, chains in i["vectors"]:
        master = BIP32.from_seed(seed)
        for chain in chains:
            out.append(f"{chain} {master.get_xpub_from_path(chain)} {master.get_xpriv_from_path(chain)}\n")
    return "".join(out)


if __name__ == "__main__":
    if sys.argv[1:] == ["--version"]:
        print(
            f"bip32 {version('bip32')} + coincurve {version('coincurve')}, "
            f"CPython {sys.version.split()[0]}"
        )
    else:
        versus_worker.main()
