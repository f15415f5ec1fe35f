tools.demo
  .fail({ message: "upstream timeout" })
  .then(() => ({ ok: true }))
  .catch((e) => ({ ok: false, reason: e.message }))
