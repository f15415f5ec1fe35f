using res = getResource();
{
    await using a = getResource(), b = null;
    use(a, b);
}
for (using r of getResources()) use(r);
