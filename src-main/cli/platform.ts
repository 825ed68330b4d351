export async function main(): Promise<number> {
  console.error('flow-studio platform: the platform server is being built (issue: platform server)');
  return 1;
}
