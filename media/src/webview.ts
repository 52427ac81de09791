// The webview: draws the simulation timeline (see server/src/simulate).
export {};
