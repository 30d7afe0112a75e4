// The global operator new and delete of accord-bench, replaced so a run can count the heap bytes
// its live allocations hold and how many it made (bench.hpp: count_heap, heap_bytes_in_use,
// heap_allocations). Off, the cost is one relaxed load per call on top of malloc and free.

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "bench.hpp"

namespace {

std::atomic<bool> counting{false};
std::atomic<long long> in_use{0};
std::atomic<long long> allocations{0};

void* allocate(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  if (counting.load(std::memory_order_relaxed)) {
    in_use.fetch_add(static_cast<long long>(malloc_usable_size(p)), std::memory_order_relaxed);
    allocations.fetch_add(1, std::memory_order_relaxed);
  }
  return p;
}

void release(void* p) noexcept {
  if (p == nullptr) return;
  if (counting.load(std::memory_order_relaxed)) {
    in_use.fetch_sub(static_cast<long long>(malloc_usable_size(p)), std::memory_order_relaxed);
  }
  std::free(p);
}

}  // namespace

namespace accord::bench {

void count_heap(bool on) {
  counting.store(on, std::memory_order_relaxed);
}

long long heap_bytes_in_use() {
  return in_use.load(std::memory_order_relaxed);
}

long long heap_allocations() {
  return allocations.load(std::memory_order_relaxed);
}

}  // namespace accord::bench

void* operator new(std::size_t size) {
  return allocate(size);
}
void* operator new[](std::size_t size) {
  return allocate(size);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}
