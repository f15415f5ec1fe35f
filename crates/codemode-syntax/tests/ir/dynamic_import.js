const mod = await import("./mod.js");
