const big = 10n ** 20n;
