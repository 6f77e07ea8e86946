// stdout carries the MCP protocol (and the JSON of `libos call`): any library that logs through
// console.log/info/debug must land on stderr instead. This module runs before every other import.
for (const level of ['log', 'info', 'debug'] as const) console[level] = console.error;
