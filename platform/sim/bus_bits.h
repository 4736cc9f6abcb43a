// Access to the flattened slot-boundary vectors of the static region's Verilated model.
//
// Verilator represents a vector of up to 8/16/32/64 bits as CData/SData/IData/QData and
// a wider one as VlWide<N>; which one a port gets depends on NumSlots. These helpers read
// and write slot s's field of either kind, so the clock loop is written once for any
// NumSlots.
#ifndef WEFT_SIM_BUS_BITS_H
#define WEFT_SIM_BUS_BITS_H

#include <cstdint>
#include <type_traits>

namespace weft::sim
{

/** Slot s's 32-bit word of a [NumSlots*32-1:0] vector. */
template <typename T> inline uint32_t word_get(const T &v, unsigned s)
{
    if constexpr (std::is_integral_v<T>) {
        return static_cast<uint32_t>(static_cast<uint64_t>(v) >> (32u * s));
    } else {
        return v.data()[s];
    }
}

/** Set slot s's 32-bit word of a [NumSlots*32-1:0] vector. */
template <typename T> inline void word_set(T &v, unsigned s, uint32_t x)
{
    if constexpr (std::is_integral_v<T>) {
        const uint64_t shift = 32u * s;
        const uint64_t mask = uint64_t{0xffffffffu} << shift;
        v = static_cast<T>((static_cast<uint64_t>(v) & ~mask) | (uint64_t{x} << shift));
    } else {
        v.data()[s] = x;
    }
}

/** All bits of a [NumSlots-1:0] vector (NumSlots <= 64), bit s for slot s. */
template <typename T> inline uint64_t bits_get(const T &v)
{
    if constexpr (std::is_integral_v<T>) {
        return static_cast<uint64_t>(v);
    } else {
        return uint64_t{v.data()[0]} | (uint64_t{v.data()[1]} << 32);
    }
}

/** Set all bits of a [NumSlots-1:0] vector (NumSlots <= 64). */
template <typename T> inline void bits_set(T &v, uint64_t x)
{
    if constexpr (std::is_integral_v<T>) {
        v = static_cast<T>(x);
    } else {
        v.data()[0] = static_cast<uint32_t>(x);
        v.data()[1] = static_cast<uint32_t>(x >> 32);
    }
}

} // namespace weft::sim

#endif // WEFT_SIM_BUS_BITS_H
