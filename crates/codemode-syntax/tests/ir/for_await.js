for await (const x of stream) {
  x;
}
