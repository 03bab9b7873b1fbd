#!/usr/bin/env python3
"""Write the hand-made seed inputs of fuzz/corpus/{parse,pipeline}.

Layout of each input: see the comments at the top of fuzz_parse.c and
fuzz_pipeline.c (option bytes, then the file content). Run from fuzz/;
the files are committed, so this only documents where they came from."""
import gzip, os

# separator index: 0 tab, 1 comma, 2 space, 3 ';', 4 '|', 5 'a', 6 0x01, 7 0xe9
bodies = {
    "tsv": b"a\tb\t1\nb\tc\t2.5\nc\ta\t0.5\nd\te\t1\ne\tf\t1\n",
    "two_col": b"a\tb\nb\tc\nc\td\n",
    "header": b"from\tto\tweight\na\tb\t1\nb\tc\t1\n",
    "crlf": b"a\tb\t1\r\nb\tc\t2\r\nc\ta\t3\r\n",
    "bom": b"\xef\xbb\xbfa\tb\t1\nb\tc\t1\n",
    "no_final_nl": b"a\tb\t1\nb\tc\t1",
    "blank_lines": b"\n\na\tb\t1\n\n\nb\tc\t1\n\n",
    "weights": b"a\tb\t0\nb\tc\t-1\nc\td\t1e-45\nd\te\t3.4e38\ne\tf\t0x1p3\nf\tg\t.5\ng\th\t+2\n",
    "bad_weights": b"a\tb\tNaN\n",
    "inf": b"a\tb\tinf\n",
    "huge": b"a\tb\t1e39\n",
    "notnum": b"a\tb\tx1\n",
    "ragged": b"a\tb\t1\nc\n",
    "four_cols": b"a\tb\t1\t2\n",
    "empty_name": b"\tb\t1\n",
    "nul": b"a\x00\tb\t1\n",
    "lone_cr": b"a\rb\tc\t1\n",
    "selfloop_dup": b"a\ta\t1\na\tb\t1\na\tb\t1\nb\ta\t2\n",
    "utf8": "α\tβ\t1\nβ\tγ\t1\n日本\tα\t2\n".encode(),
    "bad_utf8": b"\xff\xfe\tb\t1\n\xc3\tb\t1\n",
    "empty": b"",
    "only_nl": b"\n",
    "long_name": b"x" * 3000 + b"\ty\t1\n",
    "cliques": b"".join(b"c%d_%d\tc%d_%d\t1\n" % (c, i, c, j)
                        for c in range(3) for i in range(4) for j in range(i + 1, 4))
               + b"c0_3\tc1_0\t0.1\nc1_3\tc2_0\t0.1\n",
    "star": b"".join(b"hub\tn%d\t1\n" % i for i in range(40)),
    "csv": b"a,b,1\nb,c,2\nc,a,1\n",
    "space": b"a b 1\nb c 2\n",
}
gz_raw = gzip.compress(bodies["tsv"], mtime=0)
raw = {
    "gzip_raw": gz_raw,
    "gzip_truncated": gz_raw[:-6],
    "gzip_corrupt": gz_raw[:12] + bytes([gz_raw[12] ^ 0xFF]) + gz_raw[13:],
    "gzip_twomember": gz_raw + gzip.compress(b"x\ty\t1\n", mtime=0),
    "bzip2": b"BZh91AY&SY",
    "xz": b"\xfd7zXZ\x00\x00",
    "zstd": b"\x28\xb5\x2f\xfd",
}

def sepfor(name):
    return {"csv": 1, "space": 2}.get(name, 0)

os.makedirs("corpus/parse", exist_ok=True)
os.makedirs("corpus/pipeline", exist_ok=True)
for name, body in list(bodies.items()) + list(raw.items()):
    s = sepfor(name)
    hdr = 1 if name == "header" else 0
    # parse: flags bit0-1 header, bit2 ignore_weights, bit3 threads, bit4 gzip, bit5 twice
    open("corpus/parse/seed_" + name, "wb").write(bytes([s, hdr]) + body)
    if name in bodies and body:
        open("corpus/parse/seed_" + name + "_gz_twice", "wb").write(bytes([s, hdr | 0x10 | 0x20 | 0x08]) + body)
        open("corpus/parse/seed_" + name + "_noweights", "wb").write(bytes([s, hdr | 0x04]) + body)
    # pipeline: b1 bit0 header, bit1 ignore_weights, bit2 directed, bit3 threads, bit4 gzip, bit5 split at '#'
    open("corpus/pipeline/seed_" + name, "wb").write(bytes([s, hdr, 0x12, 0x00]) + body)
    if name in bodies and body:
        open("corpus/pipeline/seed_" + name + "_dir_att", "wb").write(bytes([s, hdr | 0x04 | 0x08, 0x20, 0x25]) + body)
        open("corpus/pipeline/seed_" + name + "_split_gz", "wb").write(bytes([s, hdr | 0x10 | 0x20, 0x31, 0x96]) + body[: len(body) // 2] + b"#" + body[len(body) // 2:])
