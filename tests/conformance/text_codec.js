// TextEncoder / TextDecoder (utf-8).
const out = {};
const enc = new TextEncoder();
out.encoding = [enc.encoding, new TextDecoder().encoding];
out.encode = Array.from(enc.encode("aé€😀"));
out.encodeEmpty = [enc.encode().length, enc.encode("").length, enc.encode("x") instanceof Uint8Array];
const dest = new Uint8Array(5);
out.encodeInto = enc.encodeInto("aé€", dest);
out.encodeIntoBytes = Array.from(dest);
out.encodeIntoEmoji = enc.encodeInto("😀😀", new Uint8Array(6));
const dec = new TextDecoder();
out.decode = dec.decode(new Uint8Array([104, 195, 169, 226, 130, 172]));
out.decodeBuffer = dec.decode(new Uint8Array([111, 107]).buffer);
out.decodeView = dec.decode(new DataView(new Uint8Array([120, 121, 122]).buffer, 1));
out.decodeSub = dec.decode(new Uint8Array([97, 98, 99, 100]).subarray(1, 3));
out.decodeNothing = dec.decode();
out.replacement = dec.decode(new Uint8Array([0x61, 0xff, 0x62, 0xe2, 0x82, 0x63, 0xf0, 0x9f, 0x98]));
out.bom = [dec.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).length,
  new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).length];
const fatal = new TextDecoder("utf8", { fatal: true });
out.flags = [fatal.fatal, fatal.ignoreBOM, dec.fatal];
try { fatal.decode(new Uint8Array([0xc3])); } catch (e) { out.fatalError = e.name; }
out.fatalOk = fatal.decode(new Uint8Array([0xc3, 0xa9]));
const streaming = new TextDecoder();
out.stream = [streaming.decode(new Uint8Array([0xe2, 0x82]), { stream: true }), streaming.decode(new Uint8Array([0xac]))];
try { new TextDecoder("no-such-encoding"); } catch (e) { out.unsupported = e.name; }
out.labels = [" UTF-8 ", "unicode-1-1-utf-8"].map(l => new TextDecoder(l).encoding);
try { dec.decode("text"); } catch (e) { out.badInput = e.name; }
out.roundTrip = dec.decode(enc.encode("naïve ∑ 😀"));
return out;
