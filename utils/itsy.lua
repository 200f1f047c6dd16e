-- SPDX-License-Identifier: GPL-2.0-only
--
-- Wireshark dissector for the ITSY fields of the tagger module
-- (model/pfc/itsy-header.h): the checking message in the padding of an
-- IEEE 802.1Qbb PFC frame, and the synthesized ITSY frame (EtherType
-- 0x88B5).  Use:  tshark -X lua_script:utils/itsy.lua -r file.pcap -Y itsy
--
-- Message (big endian, 20 bytes): magic 0x4954, type (1 checking,
-- 2 temporal, 3 break), class, S_gen (4), P_gen (2: port << 3 | class),
-- Seq (4),
-- S_tri (4), P_tri (2).  A synthesized frame adds the detection time
-- (8 bytes, ns), a hop count (1) and 7-byte hops (node 4, port 2, class 1).

local itsy = Proto("itsy", "ITSY deadlock detection")

local types = { [1] = "checking", [2] = "temporal", [3] = "break" }
local f = itsy.fields
f.carrier = ProtoField.string("itsy.carrier", "Carried in")
f.type = ProtoField.uint8("itsy.type", "Type", base.DEC, types)
f.class = ProtoField.uint8("itsy.class", "Class", base.DEC)
f.gen_node = ProtoField.uint32("itsy.gen_node", "Generic initiator node (S_gen)", base.DEC)
f.gen_port = ProtoField.uint16("itsy.gen_port", "Generic initiator port (P_gen)", base.DEC)
f.gen_class = ProtoField.uint8("itsy.gen_class", "Generic initiator class", base.DEC)
f.seq = ProtoField.uint32("itsy.seq", "Seq_id", base.DEC)
f.tri_node = ProtoField.uint32("itsy.tri_node", "Initial trigger node (S_tri)", base.DEC)
f.tri_port = ProtoField.uint16("itsy.tri_port", "Initial trigger port (P_tri)", base.DEC)
f.tri_class = ProtoField.uint8("itsy.tri_class", "Initial trigger class", base.DEC)
f.detected = ProtoField.uint64("itsy.detected_ns", "Loop detected at (ns)", base.DEC)
f.hops = ProtoField.uint8("itsy.hops", "Hops", base.DEC)
f.hop = ProtoField.string("itsy.hop", "Hop")

local MAGIC = 0x4954

-- Add the 20-byte message at tvb(offset) to tree; false when the magic is absent.
local function add_message(tvb, offset, tree, carrier)
    if tvb:len() < offset + 20 or tvb(offset, 2):uint() ~= MAGIC then
        return nil
    end
    local t = tree:add(itsy, tvb(offset, 20), "ITSY " .. (types[tvb(offset + 2, 1):uint()] or "?")
        .. " message (" .. carrier .. ")")
    t:add(f.carrier, carrier)
    t:add(f.type, tvb(offset + 2, 1))
    t:add(f.class, tvb(offset + 3, 1))
    t:add(f.gen_node, tvb(offset + 4, 4))
    local gp = tvb(offset + 8, 2):uint()
    t:add(f.gen_port, tvb(offset + 8, 2), bit.rshift(gp, 3))
    t:add(f.gen_class, tvb(offset + 9, 1), bit.band(gp, 7))
    t:add(f.seq, tvb(offset + 10, 4))
    t:add(f.tri_node, tvb(offset + 14, 4))
    local tp = tvb(offset + 18, 2):uint()
    t:add(f.tri_port, tvb(offset + 18, 2), bit.rshift(tp, 3))
    t:add(f.tri_class, tvb(offset + 19, 1), bit.band(tp, 7))
    return t
end

-- Synthesized frames: EtherType 0x88B5.
function itsy.dissector(tvb, pinfo, tree)
    pinfo.cols.protocol = "ITSY"
    local t = add_message(tvb, 0, tree, "synthesized frame")
    if not t or tvb:len() < 29 then
        return
    end
    t:add(f.detected, tvb(20, 8))
    local n = tvb(28, 1):uint()
    t:add(f.hops, tvb(28, 1))
    for h = 0, n - 1 do
        local o = 29 + 7 * h
        if tvb:len() < o + 7 then
            break
        end
        t:add(f.hop, tvb(o, 7), string.format("node %d port %d class %d",
            tvb(o, 4):uint(), tvb(o + 4, 2):uint(), tvb(o + 6, 1):uint()))
    end
    pinfo.cols.info = "ITSY " .. (types[tvb(2, 1):uint()] or "?") .. " S_gen="
        .. tvb(4, 4):uint() .. " Seq=" .. tvb(10, 4):uint()
end
DissectorTable.get("ethertype"):add(0x88B5, itsy)

-- PFC frames: the message in the padding, after opcode, class-enable vector
-- and eight times (20 bytes after the 14-byte Ethernet header).
local itsy_pfc = Proto("itsy_pfc", "ITSY message in PFC padding")
local eth_type = Field.new("eth.type")
function itsy_pfc.dissector(tvb, pinfo, tree)
    local et = eth_type()
    if not et or et.value ~= 0x8808 or tvb:len() < 54 or tvb(14, 2):uint() ~= 0x0101 then
        return
    end
    if add_message(tvb, 34, tree, "PFC padding") then
        pinfo.cols.info = tostring(pinfo.cols.info) .. " [ITSY checking S_gen="
            .. tvb(38, 4):uint() .. " Seq=" .. tvb(44, 4):uint() .. "]"
    end
end
register_postdissector(itsy_pfc)
