export async function main(): Promise<number> {
  console.error('flow-studio serve: the web studio is being built (issue: studio shell)');
  return 1;
}
