export async function openPostgresStore(..._a: unknown[]): Promise<never> { throw new Error('todo'); }
