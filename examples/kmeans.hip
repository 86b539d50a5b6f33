// SPDX-License-Identifier: MIT
// The guide's CPU-GPU cooperative k-means (§11.5, seed 000 lines 8783-9050): the GPU assigns
// every point to its nearest centroid (updateMembershipGPU), the CPU averages the clusters
// (updateCentroid) and the loop ends when no membership changes.
// Fixed/completed: gpuData ("allocated earlier") is allocated once before the loop and passed
// in; initializeCentroids (not given) takes the first k points; the main loop calls the
// pointer versions of the functions shown, not undefined vector overloads, and the
// undefined `Point` type is gone; gpuMembership is int*, not float*. Data are synthetic
// clusters from a fixed seed. Each iteration's memberships are checked against a CPU search
// over the same centroids: the GPU's choice must be a nearest centroid (a distance within
// rounding of the minimum, since fused multiply-adds may break near-ties differently).
#include "common/example_utils.hpp"

#include <cmath>
#include <iostream>
#include <vector>

__global__ void updateMembershipGPU(float *data, float *centroids, int *membership, int dataSize,
                                    int dimension, int k) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;

  if (tid < dataSize) {
    float minDistance = INFINITY;
    int bestCluster = 0;

    // Find nearest centroid
    for (int cluster = 0; cluster < k; ++cluster) {
      float distance = 0.0f;
      // Calculate Euclidean distance
      for (int d = 0; d < dimension; ++d) {
        float diff = data[tid * dimension + d] - centroids[cluster * dimension + d];
        distance += diff * diff;
      }
      if (distance < minDistance) {
        minDistance = distance;
        bestCluster = cluster;
      }
    }
    membership[tid] = bestCluster;
  }
}

static float squared_distance(const float *a, const float *b, int dimension) {
  float distance = 0.0f;
  for (int d = 0; d < dimension; ++d)
    distance += (a[d] - b[d]) * (a[d] - b[d]);
  return distance;
}

// Counts the points whose GPU cluster is not a nearest centroid on the CPU.
static std::size_t check_memberships(const float *data, const float *centroids,
                                     const int *membership, int dataSize, int dimension, int k) {
  std::size_t errors = 0;
  for (int i = 0; i < dataSize; ++i) {
    float best = INFINITY;
    for (int c = 0; c < k; ++c)
      best = std::fmin(best, squared_distance(&data[i * dimension], &centroids[c * dimension],
                                              dimension));
    const int m = membership[i];
    const bool ok = m >= 0 && m < k &&
                    squared_distance(&data[i * dimension], &centroids[m * dimension],
                                     dimension) <= best * (1.0f + 1e-5f) + 1e-6f;
    if (!ok && errors++ < 5)
      std::cerr << "point " << i << ": GPU chose cluster " << m << ", not a nearest one\n";
  }
  return errors;
}

// Runs the GPU assignment; returns how many points changed cluster, or -1 if the GPU's
// assignment is wrong.
int updateMembership(float *gpuData, const float *data, float *centroids, int *membership,
                     int dataSize, int dimension, int k) {
  float *gpuCentroids;
  int *gpuMembership;

  // Allocate GPU memory
  HIP_CHECK(hipMalloc(&gpuCentroids, k * dimension * sizeof(float)));
  HIP_CHECK(hipMalloc(&gpuMembership, dataSize * sizeof(int)));

  // Copy data from CPU to GPU
  HIP_CHECK(hipMemcpy(gpuCentroids, centroids, k * dimension * sizeof(float),
                      hipMemcpyHostToDevice));

  // Calculate the sizes for the kernel launch
  int localSize = 256;
  int globalSize = (dataSize + localSize - 1) / localSize;

  // Launch the kernel
  updateMembershipGPU<<<globalSize, localSize>>>(gpuData, gpuCentroids, gpuMembership, dataSize,
                                                 dimension, k);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());

  // Copy GPU data back to CPU
  std::vector<int> cpuNewMembership(dataSize);
  HIP_CHECK(hipMemcpy(cpuNewMembership.data(), gpuMembership, dataSize * sizeof(int),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(gpuCentroids));
  HIP_CHECK(hipFree(gpuMembership));

  if (check_memberships(data, centroids, cpuNewMembership.data(), dataSize, dimension, k) != 0)
    return -1;

  // Count membership updates
  int membershipUpdate = 0;
  for (int i = 0; i < dataSize; ++i) {
    if (membership[i] != cpuNewMembership[i]) {
      membershipUpdate++;
      membership[i] = cpuNewMembership[i];  // Update the original
    }
  }
  return membershipUpdate;
}

void updateCentroid(const float *data, float *centroids, const int *membership, int dataSize,
                    int dimension, int k) {
  std::vector<int> counts(k, 0);
  std::vector<float> sums(k * dimension, 0.0f);

  // Accumulate sums for each cluster
  for (int i = 0; i < dataSize; ++i) {
    int cluster = membership[i];
    counts[cluster]++;
    for (int d = 0; d < dimension; ++d)
      sums[cluster * dimension + d] += data[i * dimension + d];
  }

  // Calculate averages (new centroids)
  for (int cluster = 0; cluster < k; ++cluster) {
    if (counts[cluster] > 0) {
      for (int d = 0; d < dimension; ++d)
        centroids[cluster * dimension + d] = sums[cluster * dimension + d] / counts[cluster];
    }
  }
}

int main() {
  constexpr int length = 6000, dimension = 4, k = 5, maxIterations = 100;

  // Points scattered around k random centres; point i belongs to centre i % k, so the first
  // k points (the initial centroids) lie in different clusters.
  example_rng rng(8662);
  std::vector<float> centres(k * dimension);
  for (auto &c : centres)
    c = 10.0f * rng.uniform();
  std::vector<float> data(length * dimension);
  for (int i = 0; i < length; ++i) {
    for (int d = 0; d < dimension; ++d)
      data[i * dimension + d] = centres[(i % k) * dimension + d] + 4.0f * rng.uniform() - 2.0f;
  }

  float *gpuData;
  HIP_CHECK(hipMalloc(&gpuData, data.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(gpuData, data.data(), data.size() * sizeof(float), hipMemcpyHostToDevice));

  std::vector<float> centroids(data.begin(), data.begin() + k * dimension);
  std::vector<int> memberships(length, 0);
  int iteration = 0, membershipChanges = -1;
  for (; iteration < maxIterations; ++iteration) {
    // Determine the cluster that each entry belongs to.
    membershipChanges = updateMembership(gpuData, data.data(), centroids.data(),
                                         memberships.data(), length, dimension, k);
    if (membershipChanges < 0) {
      HIP_CHECK(hipFree(gpuData));
      return report_check("kmeans membership", 1);
    }
    // Converge checking.
    if (membershipChanges == 0)
      break;
    // Calculate new centroids.
    updateCentroid(data.data(), centroids.data(), memberships.data(), length, dimension, k);
  }
  HIP_CHECK(hipFree(gpuData));

  std::cout << "Converged after " << iteration + 1 << " membership updates" << std::endl;
  for (int c = 0; c < k; ++c) {
    int count = 0;
    for (int m : memberships)
      count += m == c;
    std::cout << "Cluster " << c << ": " << count << " points" << std::endl;
  }
  return report_check("kmeans", membershipChanges == 0 ? 0 : 1);
}
