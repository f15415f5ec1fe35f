export * from "fs";
