() => ({ answer: 42, ok: true })
