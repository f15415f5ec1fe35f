const bytes = new TextEncoder().encode("hello");
return { length: bytes.length, bytes };
