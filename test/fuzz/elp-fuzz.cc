/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: ReadElpFile and MakeElpFromPaths for the triangle of
 * data/triangle.json (TAGGER_FUZZ_TOPOLOGY).  The input is an ELP file; its
 * lines are also read as paths of node ids (each word a number, modulo 16 so
 * that ids past the topology's six nodes occur) for MakeElpFromPaths.  Bad
 * input must end in TaggerError; a file read must give the same ELP as
 * MakeElpFromPaths of its paths.
 */

#include "fuzz-util.h"
#include "tagger-io.h"

#include <sstream>

using namespace ns3::tagger;

namespace
{

/// \param text the input \return its lines as paths of node ids
std::vector<Path>
IdPaths(const std::string& text)
{
    std::vector<Path> paths;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line))
    {
        std::istringstream words(line);
        std::string word;
        Path path;
        while (words >> word)
        {
            path.push_back(static_cast<NodeId>(std::strtoul(word.c_str(), nullptr, 10) % 16));
        }
        if (!path.empty())
        {
            paths.push_back(std::move(path));
        }
    }
    return paths;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const Topology topo = ReadTopologyFile(TAGGER_FUZZ_TOPOLOGY, 0);
    static tagger_fuzz::ScratchFile file;
    const std::string text = tagger_fuzz::AsText(data, size);
    try
    {
        Elp elp = ReadElpFile(topo, file.Write(text));
        Elp same = MakeElpFromPaths(topo, elp.paths);
        tagger_fuzz::Require(same.paths == elp.paths && same.pathCount == elp.pathCount &&
                                 same.longestPath == elp.longestPath,
                             "ReadElpFile agrees with MakeElpFromPaths");
    }
    catch (const TaggerError&)
    {
    }
    try
    {
        MakeElpFromPaths(topo, IdPaths(text));
    }
    catch (const TaggerError&)
    {
    }
    return 0;
}
