interface Result { ok: boolean; detail: string }

async function main(): Promise<Result> {
  await tools.demo.fail({ message: "billing API returned 503" });
  return { ok: true, detail: "unreachable" };
}

main()
  .then((r: Result) => r)
  .catch((e: Error): Result => ({ ok: false, detail: e.message }));
