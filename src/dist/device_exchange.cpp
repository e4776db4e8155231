// src/dist/device_exchange.cpp — the exchanges between the ranks' GPUs (see gpu500/dist/device_exchange.hpp):
// NCCL between the GPUs, device pointers handed to a CUDA-aware MPI, or staged through page-locked host buffers.
#include "gpu500/dist/device_exchange.hpp"

#include "gpu500/dist/bitmap.hpp"

namespace gpu500::dist {

device_exchange::device_exchange(const dist::communicator& c, exchange_mode mode) : c_(c), mode_(mode) {
  if (mode_ == exchange_mode::nccl && c_.size() > 1 && c_.is_mpi()) nccl_ = std::make_unique<dist::nccl_comm>(c_);
}

std::byte* device_exchange::stage(gpu::pinned_buffer<std::byte>& b, std::size_t bytes) {
  if (b.size() < bytes) b = gpu::pinned_buffer<std::byte>(bytes + bytes / 4);
  return b.data();
}

void device_exchange::pack_blocks(void* to, const void* send, const index_t* send_counts,
                                  const index_t* send_displs, std::size_t ranks, std::size_t elem_bytes) {
  auto* o = static_cast<std::byte*>(to);
  const auto* s = static_cast<const std::byte*>(send);
  for (std::size_t r = 0; r < ranks; ++r) {
    const auto b = static_cast<std::size_t>(send_counts[r]) * elem_bytes;
    if (b) gpu::copy_bytes(o, s + static_cast<std::size_t>(send_displs[r]) * elem_bytes, b);
    o += b;
  }
}

void device_exchange::alltoallv_bytes(const void* send, const index_t* send_counts, void* recv,
                                      const index_t* recv_counts, std::size_t elem_bytes, const index_t* send_displs) {
  gpu::synchronize();  // the send buffer was written by kernels
  const auto R = static_cast<std::size_t>(c_.size());
  if (R == 1 || !c_.is_mpi()) {
    const auto* from = static_cast<const std::byte*>(send) + (send_displs ? send_displs[0] * elem_bytes : 0);
    if (send_counts[0] > 0) gpu::copy_bytes(recv, from, static_cast<std::size_t>(send_counts[0]) * elem_bytes);
    return;
  }
  if (nccl_) {
    nccl_->alltoallv_bytes(send, send_counts, recv, recv_counts, elem_bytes, nullptr, send_displs);
    gpu::synchronize();
    return;
  }
  std::size_t out_bytes = 0, in_bytes = 0;
  for (std::size_t r = 0; r < R; ++r) {
    out_bytes += static_cast<std::size_t>(send_counts[r]) * elem_bytes;
    in_bytes += static_cast<std::size_t>(recv_counts[r]) * elem_bytes;
  }
  if (mode_ == exchange_mode::device) {
    if (send_displs) {  // MPI takes blocks in rank order, without gaps
      packed_.reserve(out_bytes);
      pack_blocks(packed_.data(), send, send_counts, send_displs, R, elem_bytes);
      send = packed_.data();
    }
    c_.alltoallv_bytes(send, send_counts, recv, recv_counts, elem_bytes);
    return;
  }
  std::byte* o = stage(out_, out_bytes);
  std::byte* i = stage(in_, in_bytes);
  if (send_displs)
    pack_blocks(o, send, send_counts, send_displs, R, elem_bytes);
  else if (out_bytes)
    gpu::copy_bytes(o, send, out_bytes);
  c_.alltoallv_bytes(o, send_counts, i, recv_counts, elem_bytes);
  if (in_bytes) gpu::copy_bytes(recv, i, in_bytes);
}

void device_exchange::exchange_counts_inline(const void* send, const index_t* send_counts, index_t* recv_counts,
                                            std::size_t elem_bytes, const index_t* send_displs) {
  constexpr std::size_t words = 1 + inline_bytes / sizeof(index_t);
  const auto R = static_cast<std::size_t>(c_.size());
  if (out_records_.size() < R * words) {
    out_records_ = gpu::pinned_buffer<index_t>(R * words);
    in_records_ = gpu::pinned_buffer<index_t>(R * words);
  }
  send_at_.assign(R + 1, 0);
  bool copied = false;
  for (std::size_t r = 0; r < R; ++r) {
    send_at_[r] = send_displs ? send_displs[r] : (r ? send_at_[r - 1] + send_counts[r - 1] : 0);
    index_t* rec = out_records_.data() + r * words;
    rec[0] = send_counts[r];
    if (inlined(send_counts[r], elem_bytes, static_cast<int>(r))) {
      gpu::copy_bytes_async(rec + 1, static_cast<const std::byte*>(send) + static_cast<std::size_t>(send_at_[r]) * elem_bytes,
                            static_cast<std::size_t>(send_counts[r]) * elem_bytes, nullptr);
      copied = true;
    }
  }
  if (copied) gpu::synchronize();
  c_.exchange_counts(out_records_.data(), in_records_.data(), static_cast<int>(words));
  for (std::size_t r = 0; r < R; ++r) recv_counts[r] = in_records_.data()[r * words];
}

void device_exchange::alltoallv_rest(const void* send, const index_t* send_counts, void* recv,
                                     const index_t* recv_counts, std::size_t elem_bytes) {
  constexpr std::size_t words = 1 + inline_bytes / sizeof(index_t);
  const auto R = static_cast<std::size_t>(c_.size());
  recv_at_.assign(R, 0);
  big_send_.assign(R, 0);
  big_recv_.assign(R, 0);
  for (std::size_t r = 0; r < R; ++r) {
    if (r > 0) recv_at_[r] = recv_at_[r - 1] + recv_counts[r - 1];
    const int peer = static_cast<int>(r);
    if (inlined(recv_counts[r], elem_bytes, peer))
      gpu::copy_bytes_async(static_cast<std::byte*>(recv) + static_cast<std::size_t>(recv_at_[r]) * elem_bytes,
                            in_records_.data() + r * words + 1, static_cast<std::size_t>(recv_counts[r]) * elem_bytes,
                            nullptr);
    else
      big_recv_[r] = recv_counts[r];
    if (!inlined(send_counts[r], elem_bytes, peer)) big_send_[r] = send_counts[r];
  }
  nccl_->alltoallv_bytes(send, big_send_.data(), recv, big_recv_.data(), elem_bytes, nullptr, send_at_.data(),
                         recv_at_.data());
  gpu::synchronize();
}

void device_exchange::allgatherv_bytes(const void* mine, void* whole, const index_t* counts,
                                       std::size_t elem_bytes) {
  gpu::synchronize();  // `mine` was written by kernels
  const auto R = static_cast<std::size_t>(c_.size());
  const auto me = static_cast<std::size_t>(c_.rank());
  std::vector<std::size_t> bytes(R);
  std::size_t total = 0, mine_at = 0;
  for (std::size_t r = 0; r < R; ++r) {
    bytes[r] = static_cast<std::size_t>(counts[r]) * elem_bytes;
    if (r < me) mine_at += bytes[r];
    total += bytes[r];
  }
  if (R == 1 || !c_.is_mpi()) {
    if (bytes[me]) gpu::copy_bytes(static_cast<std::byte*>(whole) + mine_at, mine, bytes[me]);
    return;
  }
  if (nccl_) {
    nccl_->allgatherv_bytes(mine, whole, bytes.data(), nullptr);
    gpu::synchronize();
    return;
  }
  if (mode_ == exchange_mode::device) {
    c_.allgatherv_bytes(mine, whole, counts, elem_bytes);
    return;
  }
  std::byte* o = stage(out_, bytes[me] + 8);
  std::byte* i = stage(in_, total + 8);
  if (bytes[me]) gpu::copy_bytes(o, mine, bytes[me]);
  c_.allgatherv_bytes(o, i, counts, elem_bytes);
  if (total) gpu::copy_bytes(whole, i, total);
}

void device_exchange::allgather_bitmap(const dist::block_partition& p, const std::uint64_t* slice,
                                       std::uint64_t* whole) {
  // Every slice but the last is block/64 words, so the slices in rank order are the bitmap.
  std::vector<index_t> words(static_cast<std::size_t>(c_.size()));
  for (int r = 0; r < c_.size(); ++r) words[static_cast<std::size_t>(r)] = dist::bitmap_slice_words(p, r);
  allgatherv_bytes(slice, whole, words.data(), sizeof(std::uint64_t));
}

}  // namespace gpu500::dist
