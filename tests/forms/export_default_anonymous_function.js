export default async function () {
  const echoed = await tools.demo.echo({ message: "hello", n: 3 });
  return echoed.message.repeat(echoed.n);
}
