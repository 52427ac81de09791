/**
 * Custom requests and notifications between the VS Code client and the language server, typed once
 * for both sides (method names are the contract; params and results are plain JSON).
 */
export const Methods = {} as const;
