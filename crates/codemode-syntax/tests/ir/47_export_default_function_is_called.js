export const ids = ["a"];
export default async function run() {
  return ids.length;
}
