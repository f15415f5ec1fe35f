enum Level { Debug, Info, Warn, Error }

const levels: Level[] = [Level.Info, Level.Error, Level.Debug];
const names = levels.map((l) => Level[l]);
({ names, warn: Level.Warn, keys: Object.keys(Level).filter((k) => isNaN(Number(k))) })
