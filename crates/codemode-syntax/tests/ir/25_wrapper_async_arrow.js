
async () => {
  const user = await tools.users.get({ id: 1 });
  return user.name;
}
