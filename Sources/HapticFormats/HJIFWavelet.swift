/// WaveletWave bands: the blocks of samples their effects code.
enum HJIFWavelet {
    /// The decoded blocks of `band` (its `effects` flattened and sorted), each at its tick position with
    /// its samples at the band's upper frequency limit in Hz.
    static func blocks(of band: HJIFBand, effects: [HJIFEffect], timescale: Int) -> [(position: Int, samples: [Double])] {
        []
    }
}
