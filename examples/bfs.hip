// SPDX-License-Identifier: MIT
// The guide's level-synchronous breadth-first search (§11.7, seed 000 lines 9615-9753, from
// Rodinia): Kernel1 expands the current frontier, Kernel2 turns the discovered nodes into the
// next frontier and raises a device flag; the host relaunches both until the flag stays
// false. Kernel boundaries on the null stream are the only global synchronisation.
// Fixed/completed: MAX_THREADS_PER_BLOCK, never defined, is 512 (Rodinia's value); Kernel2's
// body, garbled by a page break, is restored (all four statements inside the if); the
// graph setup, the source node and a CPU BFS to compare with (the guide's validation
// advice) are written here. Runs the guide's 4-node example graph (R-A, R-B, A-C, B-C) and a
// random graph from a fixed seed; costs must equal the CPU's exactly.
// Race-free: several frontier nodes (threads of any block) may discover the same node, and
// every discovered node raises the flag, so those writes are atomic (the flags are ints for
// atomicExch; the guide's bools were plain stores, a data race even though the values agree).
#include "common/example_utils.hpp"

#include <algorithm>
#include <iostream>
#include <queue>
#include <vector>

#define MAX_THREADS_PER_BLOCK 512

struct Node {
  int starting;     // starting index in the edge list
  int no_of_edges;  // number of outgoing edges
};

__global__ void Kernel1(Node *g_graph_nodes, int *g_graph_edges, bool *g_graph_mask,
                        int *g_updating_graph_mask, bool *g_graph_visited, int *g_graph_cost,
                        int no_of_nodes) {
  int tid = hipBlockIdx_x * MAX_THREADS_PER_BLOCK + hipThreadIdx_x;

  if (tid < no_of_nodes && g_graph_mask[tid]) {
    g_graph_mask[tid] = false;
    for (int i = g_graph_nodes[tid].starting;
         i < g_graph_nodes[tid].starting + g_graph_nodes[tid].no_of_edges; i++) {
      int id = g_graph_edges[i];
      if (!g_graph_visited[id]) {
        // Several frontier nodes may write here; they all write the same cost.
        atomicExch(&g_graph_cost[id], g_graph_cost[tid] + 1);
        atomicExch(&g_updating_graph_mask[id], 1);
      }
    }
  }
}

__global__ void Kernel2(bool *g_graph_mask, int *g_updating_graph_mask, bool *g_graph_visited,
                        int *g_over, int no_of_nodes) {
  int tid = hipBlockIdx_x * MAX_THREADS_PER_BLOCK + hipThreadIdx_x;

  if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
    g_graph_mask[tid] = true;
    g_graph_visited[tid] = true;
    atomicExch(g_over, 1);
    g_updating_graph_mask[tid] = 0;
  }
}

struct Graph {
  std::vector<Node> nodes;
  std::vector<int> edges;
};

// Builds the adjacency arrays from an edge list; undirected edges are stored both ways.
static Graph make_graph(int no_of_nodes, const std::vector<std::pair<int, int>> &pairs) {
  std::vector<std::vector<int>> adjacency(no_of_nodes);
  for (auto [a, b] : pairs) {
    adjacency[a].push_back(b);
    adjacency[b].push_back(a);
  }
  Graph g;
  for (auto &list : adjacency) {
    g.nodes.push_back({static_cast<int>(g.edges.size()), static_cast<int>(list.size())});
    g.edges.insert(g.edges.end(), list.begin(), list.end());
  }
  return g;
}

static std::vector<int> bfs_gpu(const Graph &g, int source) {
  const int no_of_nodes = static_cast<int>(g.nodes.size());
  const int edge_count = static_cast<int>(g.edges.size());
  std::vector<char> mask(no_of_nodes, 0), visited(no_of_nodes, 0);
  std::vector<int> cost(no_of_nodes, -1);
  mask[source] = visited[source] = 1;
  cost[source] = 0;

  Node *d_graph_nodes;
  int *d_graph_edges, *d_graph_cost, *d_graph_updating_graph_mask, *d_over;
  bool *d_graph_mask, *d_graph_visited;
  HIP_CHECK(hipMalloc(&d_graph_nodes, no_of_nodes * sizeof(Node)));
  HIP_CHECK(hipMalloc(&d_graph_edges, (edge_count + 1) * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_graph_cost, no_of_nodes * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_graph_mask, no_of_nodes * sizeof(bool)));
  HIP_CHECK(hipMalloc(&d_graph_updating_graph_mask, no_of_nodes * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_graph_visited, no_of_nodes * sizeof(bool)));
  HIP_CHECK(hipMalloc(&d_over, sizeof(int)));

  static_assert(sizeof(bool) == sizeof(char), "bool arrays are copied from char vectors");
  HIP_CHECK(hipMemcpy(d_graph_nodes, g.nodes.data(), no_of_nodes * sizeof(Node),
                      hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_graph_edges, g.edges.data(), edge_count * sizeof(int),
                      hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_graph_cost, cost.data(), no_of_nodes * sizeof(int),
                      hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_graph_mask, mask.data(), no_of_nodes, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(d_graph_visited, visited.data(), no_of_nodes, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(d_graph_updating_graph_mask, 0, no_of_nodes * sizeof(int)));

  const int num_blocks = (no_of_nodes + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK;
  int h_over;
  int levels = 0;
  do {
    h_over = 0;
    HIP_CHECK(hipMemcpy(d_over, &h_over, sizeof(int), hipMemcpyHostToDevice));

    Kernel1<<<num_blocks, MAX_THREADS_PER_BLOCK>>>(d_graph_nodes, d_graph_edges, d_graph_mask,
                                                   d_graph_updating_graph_mask, d_graph_visited,
                                                   d_graph_cost, no_of_nodes);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    Kernel2<<<num_blocks, MAX_THREADS_PER_BLOCK>>>(d_graph_mask, d_graph_updating_graph_mask,
                                                   d_graph_visited, d_over, no_of_nodes);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(&h_over, d_over, sizeof(int), hipMemcpyDeviceToHost));
    ++levels;
  } while (h_over && levels <= no_of_nodes);

  HIP_CHECK(hipMemcpy(cost.data(), d_graph_cost, no_of_nodes * sizeof(int),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d_graph_nodes));
  HIP_CHECK(hipFree(d_graph_edges));
  HIP_CHECK(hipFree(d_graph_cost));
  HIP_CHECK(hipFree(d_graph_mask));
  HIP_CHECK(hipFree(d_graph_updating_graph_mask));
  HIP_CHECK(hipFree(d_graph_visited));
  HIP_CHECK(hipFree(d_over));
  return cost;
}

// Queue-based BFS, the reference.
static std::vector<int> bfs_cpu(const Graph &g, int source) {
  std::vector<int> cost(g.nodes.size(), -1);
  std::queue<int> queue;
  cost[source] = 0;
  queue.push(source);
  while (!queue.empty()) {
    const int n = queue.front();
    queue.pop();
    for (int i = 0; i < g.nodes[n].no_of_edges; ++i) {
      const int id = g.edges[g.nodes[n].starting + i];
      if (cost[id] < 0) {
        cost[id] = cost[n] + 1;
        queue.push(id);
      }
    }
  }
  return cost;
}

static int check(const char *what, const std::vector<int> &got, const std::vector<int> &want) {
  std::size_t errors = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i] && errors++ < 5)
      std::cerr << what << ": node " << i << " cost " << got[i] << ", expected " << want[i]
                << "\n";
  }
  return report_check(what, errors);
}

int main() {
  int failures = 0;

  // The guide's example: R=0, A=1, B=2, C=3 with edges R-A, R-B, A-C, B-C.
  const Graph small = make_graph(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  const std::vector<int> small_cost = bfs_gpu(small, 0);
  std::cout << "Costs from R: R=" << small_cost[0] << " A=" << small_cost[1]
            << " B=" << small_cost[2] << " C=" << small_cost[3] << std::endl;
  failures += check("bfs example graph", small_cost, bfs_cpu(small, 0));

  // A random sparse graph: 20,000 nodes, 24,000 edges, some nodes unreachable (cost -1).
  constexpr int no_of_nodes = 20000;
  example_rng rng(9507);
  std::vector<std::pair<int, int>> pairs;
  for (int e = 0; e < 24000; ++e)
    pairs.push_back({rng.range(0, no_of_nodes), rng.range(0, no_of_nodes)});
  const Graph big = make_graph(no_of_nodes, pairs);
  const std::vector<int> want = bfs_cpu(big, 0);
  int depth = 0, reached = 0;
  for (int c : want) {
    depth = std::max(depth, c);
    reached += c >= 0;
  }
  std::cout << "Random graph: " << reached << " of " << no_of_nodes << " nodes reached, depth "
            << depth << std::endl;
  failures += check("bfs random graph", bfs_gpu(big, 0), want);
  return failures;
}
