/*
 * SPDX-License-Identifier: GPL-2.0-only
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_FIFO_H
#define PFC_FIFO_H

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <utility>

/**
 * \file
 * \ingroup tagger
 * A first-in first-out queue on one growable ring buffer (PfcFifo).
 */

namespace ns3
{

/**
 * \ingroup tagger
 * A FIFO queue on a ring buffer whose capacity is a power of two.
 *
 * It replaces std::deque in the per-port class queues: a port has nine
 * queues and a large network tens of thousands of ports, almost all of them
 * empty.  An empty PfcFifo that never held anything allocates nothing and
 * takes 24 bytes, where a std::deque allocates a 512-byte block when it is
 * constructed and takes 80 bytes; and a PfcFifo that empties and fills again
 * reuses its buffer instead of freeing and allocating blocks.
 *
 * The buffer grows by doubling (moving the elements, oldest first) and only
 * shrinks on clear(); growing past 2^31 elements throws std::length_error.
 * A free slot holds no element: push_back() constructs the element in it and
 * pop_front() destroys it (a Ptr in it is released at once, not when the slot
 * is reused).  So push_back() writes its slot without reading it first, which
 * in a large network saves waiting for a slot that has left the cache (an
 * assignment would read the Ptr it replaces).  References and iterators are
 * invalidated by push_back (when it grows), as with std::vector.  A PfcFifo
 * can be moved (the source is left empty), not copied.
 */
template <typename T>
class PfcFifo
{
  public:
    PfcFifo() = default;

    /// Destroys the elements.
    ~PfcFifo()
    {
        clear();
    }

    PfcFifo(const PfcFifo&) = delete;
    PfcFifo& operator=(const PfcFifo&) = delete;

    /// \param other a queue, left empty
    PfcFifo(PfcFifo&& other) noexcept
    {
        swap(other);
    }

    /// \param other a queue, left empty \return this queue, with other's elements
    PfcFifo& operator=(PfcFifo&& other) noexcept
    {
        if (this != &other)
        {
            clear();
            swap(other);
        }
        return *this;
    }

    /// Read-only iterator, oldest element first.
    class const_iterator
    {
      public:
        using iterator_category = std::forward_iterator_tag; //!< iterator kind
        using value_type = T;                                //!< element type
        using difference_type = std::ptrdiff_t;              //!< distance type
        using pointer = const T*;                            //!< pointer type
        using reference = const T&;                          //!< reference type

        /// \param fifo the queue \param i position from the oldest element
        const_iterator(const PfcFifo* fifo, std::size_t i)
            : m_fifo(fifo),
              m_i(i)
        {
        }

        /// \return the element
        const T& operator*() const
        {
            return (*m_fifo)[m_i];
        }

        /// \return the element's address
        const T* operator->() const
        {
            return &(*m_fifo)[m_i];
        }

        /// \return this iterator, advanced
        const_iterator& operator++()
        {
            ++m_i;
            return *this;
        }

        /// \param o another iterator \return whether both point at the same place
        bool operator==(const const_iterator& o) const
        {
            return m_fifo == o.m_fifo && m_i == o.m_i;
        }

        /// \param o another iterator \return whether they point at different places
        bool operator!=(const const_iterator& o) const
        {
            return !(*this == o);
        }

      private:
        const PfcFifo* m_fifo; //!< the queue
        std::size_t m_i;       //!< position from the oldest element
    };

    /// \return whether the queue is empty
    bool empty() const
    {
        return m_size == 0;
    }

    /// \return the number of elements
    std::size_t size() const
    {
        return m_size;
    }

    /// \return the oldest element (the queue must not be empty)
    T& front()
    {
        return *At(m_head);
    }

    /// \return the oldest element (the queue must not be empty)
    const T& front() const
    {
        return *At(m_head);
    }

    /// \return the newest element (the queue must not be empty)
    T& back()
    {
        return *At((m_head + m_size - 1) & Mask());
    }

    /// \param i position from the oldest element (< size()) \return that element
    const T& operator[](std::size_t i) const
    {
        return *At((m_head + i) & Mask());
    }

    /// Append a copy of \p value at the back. \param value the element
    void push_back(const T& value)
    {
        new (FreeSlot()) T(value);
        ++m_size;
    }

    /// Append \p value at the back. \param value the element, moved
    void push_back(T&& value)
    {
        new (FreeSlot()) T(std::move(value));
        ++m_size;
    }

    /// Remove the oldest element (the queue must not be empty).
    void pop_front()
    {
        At(m_head)->~T();
        m_head = uint32_t((m_head + 1) & Mask());
        --m_size;
    }

    /// Remove every element and free the buffer.
    void clear()
    {
        for (std::size_t i = 0; i < m_size; ++i)
        {
            At((m_head + i) & Mask())->~T();
        }
        m_slots.reset();
        m_capacity = 0;
        m_head = 0;
        m_size = 0;
    }

    /// Exchange the contents with \p other. \param other another queue
    void swap(PfcFifo& other)
    {
        m_slots.swap(other.m_slots);
        std::swap(m_capacity, other.m_capacity);
        std::swap(m_head, other.m_head);
        std::swap(m_size, other.m_size);
    }

    /// \return an iterator at the oldest element
    const_iterator begin() const
    {
        return const_iterator(this, 0);
    }

    /// \return the iterator past the newest element
    const_iterator end() const
    {
        return const_iterator(this, m_size);
    }

  private:
    /// Raw storage for one element: a free slot holds none.
    struct alignas(T) Slot
    {
        unsigned char bytes[sizeof(T)]; //!< the element's storage
    };

    /// \param i a slot index \return the element in slot \p i (it must hold one)
    T* At(std::size_t i) const
    {
        return std::launder(reinterpret_cast<T*>(&m_slots[i]));
    }

    /// \return the storage of the slot after the newest element, growing first if full
    void* FreeSlot()
    {
        if (m_size == m_capacity)
        {
            Grow();
        }
        return &m_slots[(m_head + m_size) & Mask()];
    }

    /// \return the index mask (capacity - 1; the capacity is a power of two)
    std::size_t Mask() const
    {
        return std::size_t(m_capacity) - 1;
    }

    /// Double the capacity (first 4), moving the elements oldest first.
    void Grow()
    {
        if (m_capacity > (UINT32_MAX >> 1))
        {
            // 2^31 elements (48 GiB of queue entries): the capacity would wrap.
            throw std::length_error("PfcFifo: more than 2^31 elements");
        }
        uint32_t capacity = m_capacity == 0 ? 4 : 2 * m_capacity;
        std::unique_ptr<Slot[]> slots(new Slot[capacity]);
        for (std::size_t i = 0; i < m_size; ++i)
        {
            T* from = At((m_head + i) & Mask());
            new (&slots[i]) T(std::move(*from));
            from->~T();
        }
        m_slots.swap(slots);
        m_capacity = capacity;
        m_head = 0;
    }

    std::unique_ptr<Slot[]> m_slots; //!< the ring (m_capacity slots)
    uint32_t m_capacity = 0;         //!< a power of two, or 0
    uint32_t m_head = 0;             //!< index of the oldest element
    uint32_t m_size = 0;             //!< number of elements
};

} // namespace ns3

#endif /* PFC_FIFO_H */
