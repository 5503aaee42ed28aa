// The sizes faultline accepts: Kubernetes' documented scalability limits and a week of simulated time.

// Kubernetes' documented scalability limits ("Considerations for large clusters"): no more than
// 5,000 nodes, 150,000 total pods, 300,000 total containers. A scenario beyond them is a mistake.
export const MAX_NODES = 5_000;
export const MAX_PODS = 150_000;
export const MAX_CONTAINERS = 300_000;
export const MAX_DURATION_SECONDS = 7 * 24 * 3600;
